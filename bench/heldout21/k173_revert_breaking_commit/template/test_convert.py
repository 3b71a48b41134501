import pytest

from convert import c_to_f, hpa_to_inhg, kmh_to_knots


def test_c_to_f():
    assert c_to_f(0) == 32
    assert c_to_f(100) == 212
    assert c_to_f(-40) == -40


def test_kmh_to_knots():
    assert kmh_to_knots(18.52) == pytest.approx(10)


def test_hpa_to_inhg():
    assert hpa_to_inhg(1013.25) == pytest.approx(29.92, abs=0.01)
