"""Show where each page goes when the site is published:
python3 publish.py --out DIR [--out-format html|txt] PAGE...
"""

import argparse
import os


def target(page, folder, fmt):
    """The path `page` is published to: in `folder`, with the extension `fmt`."""
    stem = os.path.splitext(os.path.basename(page))[0]
    return os.path.join(folder, f"{stem}.{fmt}")


def main():
    parser = argparse.ArgumentParser(description="Show where each page goes when the site is published.")
    parser.add_argument("--out", required=True, metavar="DIR", help="the folder the pages go to")
    parser.add_argument("--out-format", default="html", choices=["html", "txt"], help="the pages' format")
    parser.add_argument("pages", nargs="+", metavar="PAGE")
    args = parser.parse_args()
    for page in args.pages:
        print(f"{page} -> {target(page, args.out, args.out_format)}")


if __name__ == "__main__":
    main()
