import pytest

from colors import hex_to_rgb, lighten, rgb_to_hex


def test_rgb_to_hex():
    assert rgb_to_hex((255, 136, 0)) == "#ff8800"


def test_hex_to_rgb():
    assert hex_to_rgb("#ff8800") == (255, 136, 0)
    assert hex_to_rgb("#1A2b3C") == (26, 43, 60)


def test_hex_to_rgb_short():
    assert hex_to_rgb("#f80") == (255, 136, 0)


def test_hex_to_rgb_rejects_what_is_not_a_colour():
    for text in ["ff8800", "#ff88", "#gg0000"]:
        with pytest.raises(ValueError):
            hex_to_rgb(text)


def test_lighten():
    assert lighten((0, 100, 255), 0.2) == (51, 131, 255)
