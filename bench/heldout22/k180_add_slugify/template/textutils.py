"""Text helpers for the blog generator."""


def title_case(text):
    """Capitalise each word, except short joining words after the first one."""
    small = {"a", "an", "and", "the", "of", "in", "on", "to", "for"}
    words = text.lower().split()
    return " ".join(
        word if i and word in small else word[:1].upper() + word[1:] for i, word in enumerate(words)
    )


def truncate(text, width):
    """`text` cut to at most `width` characters, ending in "..." when something was cut."""
    if len(text) <= width:
        return text
    return text[: max(width - 3, 0)].rstrip() + "..."


def word_count(text):
    """How many words `text` has (runs of characters between spaces)."""
    return len(text.split())
