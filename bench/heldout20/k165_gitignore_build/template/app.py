"""Build the weekly menu page: python3 app.py writes build/menu.html."""

from lib.util import page

if __name__ == "__main__":
    with open("build/menu.html", "w") as f:
        f.write(page(["soup", "curry", "pasta"]))
