"""Turn a page selection like "1-3,7" into a list of page numbers."""


def parse_ranges(text):
    pages = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            start, end = part.split("-")
            pages.extend(range(int(start), int(end)))
        else:
            pages.append(int(part))
    return pages


def count_pages(text):
    return len(parse_ranges(text))
