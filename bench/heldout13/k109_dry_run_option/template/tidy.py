"""Tidy the file names in a folder: lower case, with underscores for spaces and dashes.

    python3 tidy.py FOLDER
"""

import argparse
import os


def tidy_name(name):
    """The tidy form of a file name: tidy_name("Holiday Photo-1.JPG") == "holiday_photo_1.jpg"."""
    return name.lower().replace(" ", "_").replace("-", "_")


def tidy(folder):
    """Rename the files of `folder` whose names are not tidy; the lines to print, in name order."""
    lines = []
    for name in sorted(os.listdir(folder)):
        new = tidy_name(name)
        if new == name or not os.path.isfile(os.path.join(folder, name)):
            continue
        if os.path.exists(os.path.join(folder, new)):
            lines.append(f"skipped {name} ({new} exists)")
            continue
        os.rename(os.path.join(folder, name), os.path.join(folder, new))
        lines.append(f"renamed {name} -> {new}")
    return lines


def main():
    parser = argparse.ArgumentParser(description="Tidy the file names in a folder.")
    parser.add_argument("folder")
    args = parser.parse_args()
    lines = tidy(args.folder)
    for line in lines or ["nothing to tidy"]:
        print(line)


if __name__ == "__main__":
    main()
