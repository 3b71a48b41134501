#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > signup.py <<'PY'
"""Check the fields of a sign-up form."""


def check_name(value, field):
    value = value.strip()
    if not 3 <= len(value) <= 20:
        raise ValueError(f"{field} must be 3 to 20 characters, got {len(value)}")
    for char in value:
        if not (char.isalnum() or char == "_"):
            raise ValueError(f"{field} may not contain {char!r}")
    return value.lower()


def check_username(value):
    return check_name(value, "username")


def check_team(value):
    return check_name(value, "team")


def signup(form):
    return {
        "username": check_username(form["username"]),
        "team": check_team(form["team"]),
        "email": form["email"].strip(),
    }


if __name__ == "__main__":
    print(signup({"username": " Ada_L ", "team": "Engines", "email": "ada@example.com "}))
PY
