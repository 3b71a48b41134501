import pytest

from playlist import Playlist
from radio import evening_show


def test_add_song_returns_the_position():
    playlist = Playlist("t")
    assert playlist.add_song("a", 10) == 1
    assert playlist.add_song("b", 20) == 2


def test_a_song_needs_a_length():
    with pytest.raises(ValueError):
        Playlist("t").add_song("silence", 0)


def test_the_evening_show_length():
    assert evening_show().length() == "24:56"
