"""Check the fields of a sign-up form."""


def check_username(value):
    value = value.strip()
    if not 3 <= len(value) <= 20:
        raise ValueError(f"username must be 3 to 20 characters, got {len(value)}")
    for char in value:
        if not (char.isalnum() or char == "_"):
            raise ValueError(f"username may not contain {char!r}")
    return value.lower()


def check_team(value):
    value = value.strip()
    if not 3 <= len(value) <= 20:
        raise ValueError(f"team must be 3 to 20 characters, got {len(value)}")
    for char in value:
        if not (char.isalnum() or char == "_"):
            raise ValueError(f"team may not contain {char!r}")
    return value.lower()


def signup(form):
    return {
        "username": check_username(form["username"]),
        "team": check_team(form["team"]),
        "email": form["email"].strip(),
    }


if __name__ == "__main__":
    print(signup({"username": " Ada_L ", "team": "Engines", "email": "ada@example.com "}))
