"""Lists the bookmarks in a file: python3 bookmarks.py FILE

Each line of the file is a URL, then a title, then any number of #tags, like
https://docs.python.org/3/ Python docs #python #docs
"""

import argparse


def read_bookmarks(path):
    """(url, title, tags) for each bookmark in the file, tags without their #."""
    bookmarks = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            url, rest = words[0], words[1:]
            title = " ".join(word for word in rest if not word.startswith("#"))
            tags = [word[1:] for word in rest if word.startswith("#")]
            bookmarks.append((url, title, tags))
    return bookmarks


def main(argv=None):
    parser = argparse.ArgumentParser(description="List the bookmarks in a file.")
    parser.add_argument("file", help="the bookmarks file")
    args = parser.parse_args(argv)
    for url, title, tags in read_bookmarks(args.file):
        print(f"{title} <{url}>")


if __name__ == "__main__":
    main()
