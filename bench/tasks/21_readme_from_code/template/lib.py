def slugify(s):
    return s.lower().replace(' ', '-')


def truncate(s, n):
    return s[:n]


def word_count(s):
    return len(s.split())
