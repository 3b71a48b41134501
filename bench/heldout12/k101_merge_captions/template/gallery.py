"""Print the gallery page as text: python3 gallery.py"""

from settings import DEFAULTS

PHOTOS = ["beach.jpg", "fox.jpg", "old_harbour.jpg"]


def caption(name):
    """The caption shown under a photo: its file name without the extension, in words."""
    return name.rsplit(".", 1)[0].replace("_", " ").capitalize()


def main():
    print(DEFAULTS["title"])
    for number, name in enumerate(PHOTOS[: DEFAULTS["per_page"]], 1):
        print(f"{number}. {name}")


if __name__ == "__main__":
    main()
