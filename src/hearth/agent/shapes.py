"""The form of the lines a task shows, checked against what its script printed.

"... prints `Dune (mia): 14 days late` for each book whose due date is before DATE": the 1.5B's
script printed `Walden (271 days late)`, and it finished (exit 0). No output is stated exactly
(the date is the user's), but the example line has a form: the words from the workspace's data
(`Dune`, `mia`, in loans.csv) stand for any such value, the numbers for any number, and the rest
is literal. A run of the script that printed lines, none of that form, is evidence the work is
not done. Only examples the task says are printed and that name the data are read: "`1 day late`
for one day" is a fragment, "a CSV like `Dune,mia,2026-03-01`" is the input.

An example naming no data has a form too when it holds a number (`2026-01: 736.70 (3 expenses)`,
`total: 170 minutes`): the numbers are the computed part; one without (`no expenses`) is the
output of another input. A number with decimals stands for one with as many (`736.70`: the 1.5B
printed `1508.1000000000001`), and a word in capitals for any value (`total: N minutes`).

Two lines are wrong whatever the form: a count of one said in the plural where the task shows
the singular ("(`1 pet` for one)": the 1.5B's version printed `fish: 1 pets, oldest Bubbles (1)`),
and a stray line among lines of the task's form that names nothing, no number and no word of the
data, and that the task never says (`None`, what `print(main())` adds when main prints and
returns nothing: the same version printed it last, and was kept).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from hearth.agent.leftovers import read_text_file

_EXAMPLE = re.compile(r"`([^`\n]{4,200})`")
_TOKEN = re.compile(r"-?\d+(?:\.\d+)?|[A-Za-z][\w'-]*|\s+|.", re.DOTALL)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# an example the task says is printed ("prints `...`", "in the form `...`", "a last line `...`"),
# not one of the input ("a CSV like `Dune,mia,2026-03-01`")
_PRINTED = re.compile(r"\b(?:prints?|printing|outputs?|form|format|lines?|shows?|displays?)\b[^`]*$", re.I)
_DATA_SUFFIXES = (".csv", ".tsv", ".json", ".txt", ".log", ".jsonl")
_MAX_FILES = 20


def data_words(root: Path) -> set[str]:
    """The words in the workspace's data files (top level: CSV, JSON, text, logs)."""
    words: set[str] = set()
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return words
    for entry in [e for e in entries if e.name.endswith(_DATA_SUFFIXES)][:_MAX_FILES]:
        text = read_text_file(Path(entry.path))
        if text is not None:
            words.update(re.findall(r"[A-Za-z][\w'-]*", text))
    return words


def shape(example: str, data: set[str]) -> re.Pattern[str] | None:
    """The form of an example line, or None when it names nothing from the data and holds no
    number or placeholder."""
    parts, named = [], False
    for token in _TOKEN.findall(example.strip()):
        if _NUMBER.fullmatch(token):
            decimals = len(token.partition(".")[2])
            parts.append(rf"-?\d+\.\d{{{decimals}}}" if decimals else r"-?\d+")
        elif token in data:
            parts.append(r"\S+(?: \S+)*?")
            named = True
        elif token.isupper() and token.isalpha() and token not in ("I", "A"):  # a placeholder: N, YYYY
            parts.append(r"\S+")
            named = True
        elif token.isspace():
            parts.append(r"\s+")
        else:
            parts.append(re.escape(token))
    return re.compile("".join(parts)) if named or any(c.isdigit() for c in example) else None


def unshaped(task: str, root: Path, output: str) -> str:
    """The first example line of the task that names the data and that no line of `output`
    has the form of; "" when each has one (or there is none to judge, or nothing printed)."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    data = data_words(root)
    if not any(
        any(c.isdigit() for c in line) or any(w in data for w in re.findall(r"[A-Za-z][\w'-]*", line))
        for line in lines
    ):
        return ""  # nothing printed about the data, no number (another input): nothing to judge
    for example, form in printed_forms(task, data):
        if not any(form.fullmatch(line) for line in lines):
            return example
    return ""


def printed_forms(task: str, data: set[str]) -> list[tuple[str, re.Pattern[str]]]:
    """The examples the task says are printed that have a form, each with it, in the task's order."""
    forms = []
    for match in _EXAMPLE.finditer(task):
        said = task[max(0, match.start() - 60) : match.start()].rsplit(".", 1)[-1]
        form = shape(match.group(1), data) if _PRINTED.search(said) else None
        if form is not None:
            forms.append((match.group(1), form))
    return forms


_ONE = re.compile(r"`1 ([A-Za-z]+)`")


def plural_for_one(task: str, output: str) -> tuple[str, str]:
    """A count of one the task shows in the singular (`1 pet`) and a line of `output` that says
    it in the plural (`1 pets`): both, or ("", "") when there is none."""
    for match in _ONE.finditer(task):
        word = re.escape(match.group(1))
        for line in output.splitlines():
            if re.search(rf"(?<![\d.,])1 {word}(?:s|es)\b", line):
                return match.group(0).strip("`"), line.strip()
    return "", ""


def stray_line(task: str, root: Path, output: str) -> tuple[str, str]:
    """A line of `output` with no number, no word of the workspace's data and nothing the task
    says, printed among lines of a form the task shows; with that example. ("", "") when none."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    data = data_words(root)
    forms = printed_forms(task, data)
    shaped = [example for example, form in forms if any(form.fullmatch(line) for line in lines)]
    if not shaped:
        return "", ""
    for line in lines:
        words = re.findall(r"[A-Za-z][\w'-]*", line)
        if any(c.isdigit() for c in line) or any(w in data for w in words) or line.lower() in task.lower():
            continue
        if not any(form.fullmatch(line) for _, form in forms):
            return line, shaped[0]
    return "", ""
