import pytest

from bookings import Room


def test_back_to_back_bookings_are_fine():
    room = Room("Oak")
    room.book("2024-06-03 09:00", "2024-06-03 10:00", "Ana")
    room.book("2024-06-03 10:00", "2024-06-03 11:00", "Ben")
    room.book("2024-06-03 08:00", "2024-06-03 09:00", "Cy")
    assert len(room.bookings) == 3


def test_overlapping_booking_is_refused():
    room = Room("Oak")
    room.book("2024-06-03 09:00", "2024-06-03 10:00", "Ana")
    with pytest.raises(ValueError, match="Ana"):
        room.book("2024-06-03 09:30", "2024-06-03 10:30", "Ben")


def test_booking_inside_another_is_refused():
    room = Room("Oak")
    room.book("2024-06-03 09:00", "2024-06-03 12:00", "Ana")
    with pytest.raises(ValueError, match="Ana"):
        room.book("2024-06-03 10:00", "2024-06-03 10:30", "Ben")


def test_ending_before_starting_is_refused():
    with pytest.raises(ValueError):
        Room("Oak").book("2024-06-03 10:00", "2024-06-03 09:00", "Ana")


def test_free_at():
    room = Room("Elm")
    room.book("2024-06-03 09:00", "2024-06-03 10:00", "Ana")
    assert not room.free_at("2024-06-03 09:59")
    assert room.free_at("2024-06-03 10:00")


def test_day_plan_is_earliest_first():
    room = Room("Elm")
    room.book("2024-06-03 14:00", "2024-06-03 15:00", "Ana")
    room.book("2024-06-04 09:00", "2024-06-04 10:00", "Cy")
    room.book("2024-06-03 11:00", "2024-06-03 12:00", "Ben")
    assert room.day_plan("2024-06-03") == ["11:00-12:00 Ben", "14:00-15:00 Ana"]
