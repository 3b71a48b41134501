"""Build the evening show and print its running order."""

from playlist import Playlist

SHOW = [("Blue Train", 643), ("So What", 562), ("Naima", 261)]


def evening_show():
    show = Playlist("Evening")
    for title, seconds in SHOW:
        show.add_song(title, seconds)
    show.add_song("Outro", 30)
    return show


def main():
    show = evening_show()
    for number, (title, seconds) in enumerate(show.songs, start=1):
        print(f"{number}. {title} ({seconds} s)")
    print(f"{show.name}: {len(show.songs)} songs, {show.length()}")


if __name__ == "__main__":
    main()
