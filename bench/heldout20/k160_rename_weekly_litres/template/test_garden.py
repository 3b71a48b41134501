from garden import Bed
from planner import refills, thirstiest


def test_litres_for_a_bed():
    assert Bed("a", "bean", 2, 1).water_needed() == 16
    assert Bed("b", "herb", 0.5, 0.5).water_needed() == 0.8


def test_refills():
    beds = [Bed("a", "tomato", 1, 1), Bed("b", "lettuce", 1, 1)]
    assert refills(beds) == 2
    assert refills(beds, can_litres=20) == 1


def test_thirstiest():
    beds = [Bed("a", "herb", 2, 2), Bed("b", "bean", 1, 1), Bed("c", "lettuce", 1, 1)]
    assert thirstiest(beds).name == "a"
