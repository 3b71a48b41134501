from greet import greeting


def test_greeting():
    assert greeting("Ann") == "Hello, Ann!"
