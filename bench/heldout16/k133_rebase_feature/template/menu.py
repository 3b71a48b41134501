DISHES = [
    ("Soup of the day", 550),
    ("Fish and chips", 1250),
    ("Apple crumble", 600),
]


def show():
    for name, pence in DISHES:
        print(f"{name}: £{pence / 100:.2f}")


if __name__ == "__main__":
    show()
