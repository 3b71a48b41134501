COLOURS = {"background": "#ffffff", "text": "#222222"}


def css():
    return "\n".join(f"--{name}: {value};" for name, value in COLOURS.items())


if __name__ == "__main__":
    print(css())
