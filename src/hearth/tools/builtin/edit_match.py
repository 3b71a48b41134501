"""Find the text an `edit` call means, leniently, and say how it was found.

Weak models copy `old` with wrong trailing spaces, wrong indentation, smart
quotes, or the line numbers `read` showed. Matchers run strictest first; the
first that finds the text wins. If none does, the closest lines are offered
as a hint, never applied.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

_PUNCT = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u2026": "...",
    }
)
_LINE_NO = re.compile(r"^\s*\d+(?:\t|\| ?|→)")


@dataclass(frozen=True)
class Match:
    start: int  # character offsets in the original text
    end: int
    replacement: str
    how: str
    first_line: int  # 1-based


class NoMatch(Exception):
    def __init__(self, hint: str) -> None:
        super().__init__(hint)
        self.hint = hint


class Ambiguous(Exception):
    def __init__(self, lines: list[int], how: str) -> None:
        super().__init__(f"{len(lines)} matches")
        self.lines = lines
        self.how = how


def find_matches(text: str, old: str, new: str, *, replace_all: bool) -> list[Match]:
    """Matches of `old` in `text`, from the strictest matcher that finds any."""
    exact = _exact(text, old, new)
    if exact:
        return _one_or_all(exact, replace_all)
    if _all_numbered(old):
        old, new = _strip_numbers(old), _strip_numbers(new) if _all_numbered(new) else new
        exact = _exact(text, old, new)
        if exact:
            return _one_or_all([_rename(m, "line numbers removed") for m in exact], replace_all)
    for how, norm, reindent in _LINE_MATCHERS:
        found = _line_windows(text, old, new, norm, reindent, how)
        if found:
            return _one_or_all(found, replace_all)
    raise NoMatch(_closest(text, old))


def _one_or_all(found: list[Match], replace_all: bool) -> list[Match]:
    if len(found) > 1 and not replace_all:
        raise Ambiguous([m.first_line for m in found], found[0].how)
    return found


def _rename(m: Match, how: str) -> Match:
    return Match(m.start, m.end, m.replacement, how, m.first_line)


def _exact(text: str, old: str, new: str) -> list[Match]:
    out, i = [], 0
    while old:
        j = text.find(old, i)
        if j < 0:
            break
        out.append(Match(j, j + len(old), new, "exact", text.count("\n", 0, j) + 1))
        i = j + len(old)
    return out


def _all_numbered(s: str) -> bool:
    lines = [ln for ln in s.splitlines() if ln.strip()]
    return bool(lines) and all(_LINE_NO.match(ln) for ln in lines)


def _strip_numbers(s: str) -> str:
    return "\n".join(_LINE_NO.sub("", ln, count=1) for ln in s.split("\n"))


def _norm_trailing(line: str) -> str:
    return line.rstrip()


def _norm_indent(line: str) -> str:
    return line.strip()


def _norm_punct(line: str) -> str:
    return line.translate(_PUNCT).strip()


_LINE_MATCHERS: list[tuple[str, Callable[[str], str], bool]] = [
    ("ignoring trailing whitespace", _norm_trailing, False),
    ("ignoring indentation", _norm_indent, True),
    ("ignoring Unicode punctuation", _norm_punct, True),
]


def _line_windows(
    text: str, old: str, new: str, norm: Callable[[str], str], reindent: bool, how: str
) -> list[Match]:
    lines = text.splitlines(keepends=True)
    old_lines = old.strip("\n").split("\n")
    want = [norm(ln) for ln in old_lines]
    if not any(want):
        return []
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln))
    found: list[Match] = []
    n = len(want)
    i = 0
    while i + n <= len(lines):
        window = lines[i : i + n]
        if [norm(ln.rstrip("\r\n")) for ln in window] == want:
            repl = new.strip("\n")
            if reindent:
                repl = _reindent(repl, old_lines, window)
            last = window[-1]
            ending = last[len(last.rstrip("\r\n")) :]
            found.append(Match(offsets[i], offsets[i + n], repl + ending, how, i + 1))
            i += n
        else:
            i += 1
    return found


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _reindent(new: str, old_lines: list[str], window: list[str]) -> str:
    """Shift `new` by the indentation difference between `old` and the file."""
    pairs = [(o, w) for o, w in zip(old_lines, window, strict=True) if o.strip()]
    if not pairs:
        return new
    old_indent, file_indent = _indent_of(pairs[0][0]), _indent_of(pairs[0][1])
    out = []
    for ln in new.split("\n"):
        if ln.strip() and ln.startswith(old_indent):
            out.append(file_indent + ln[len(old_indent) :])
        elif ln.strip():
            out.append(file_indent + ln.lstrip())
        else:
            out.append(ln)
    return "\n".join(out)


def _closest(text: str, old: str) -> str:
    lines = text.splitlines()
    n = max(1, len(old.strip("\n").split("\n")))
    target = old.strip()
    best, best_i = 0.0, -1
    for i in range(0, max(1, len(lines) - n + 1)):
        window = "\n".join(lines[i : i + n]).strip()
        ratio = difflib.SequenceMatcher(None, window, target, autojunk=False).quick_ratio()
        if ratio <= best:
            continue
        ratio = difflib.SequenceMatcher(None, window, target, autojunk=False).ratio()
        if ratio > best:
            best, best_i = ratio, i
        if i > 20000:
            break
    if best_i < 0 or best < 0.5:
        return (
            "`old` was not found in the file, not even approximately. Read the file and copy the exact text."
        )
    snippet = "\n".join(lines[best_i : best_i + n])
    return (
        f"`old` was not found. Did you mean lines {best_i + 1}-{best_i + n} "
        f"({best:.0%} similar)?\n{snippet}\nCopy the exact text from the file into `old`."
    )
