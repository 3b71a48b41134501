"""What a task's words ask for: the files it asks to change ("Fix the typo in notes.txt"),
whether it asks for a commit, an amend or a branch, a file to move, tests that fail now.

Read from the person's words alone (and the workspace's file names): the finish review
(agent/done) holds a finish against them.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from hearth.agent.named_files import DOTFILE, named_paths
from hearth.agent.versions import is_test_file
from hearth.prompts import render

_WITHOUT = re.compile(r"\bwithout\b", re.IGNORECASE)  # "... in test_x.py without changing x.py"

NEGATION = re.compile(r"\b(?:not|no|nothing|never|cannot)\b|n't\b", re.IGNORECASE)

# A task that asks for a change to files: a sentence opening with one of these verbs, and a file
# named ("Fix the typo in notes.txt"); "write" is left out ("Write a haiku" asks for an answer).
# "In README.md, delete the row ...": a place said first, then the verb; asked politely too ("Could
# you fix watering.py so they all pass?", "I'd like you to add ..."); or as an item of a list
# ("- add a .gitignore that ...", "2. update README.md")
_POLITE = (
    r"(?:please\s+)?(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?"
    r"|i(?:'d|\s+would)\s+like\s+you\s+to\s+|i\s+need\s+you\s+to\s+)?(?:also\s+|just\s+)?"
)
_ASKS_CHANGE = re.compile(
    r"(?:^|[.!?;]\s+|\n\s*)(?:[-*+]\s+|\d+[.)]\s+)?(?:(?:in|inside|within)\s+[^,!?;\n]{1,60},\s*)?"
    + _POLITE
    + r"(?:add|fix|create|rename|bump|update|change|remove|delete|"
    r"replace|edit|implement|refactor|commit|append|insert|move|correct)\b",
    re.IGNORECASE,
)

# a sentence asking some change, its object not always the files it names ("Make them debug
# messages ...", "Correct those numbers in test_discount.py"; not "write": "Write a summary of
# notes.txt" asks an answer)
ASKS_ANY_CHANGE = re.compile(
    _ASKS_CHANGE.pattern[:-3] + r"|make|convert|turn|merge|split|extract|rewrite|squash|revert)\b",
    re.IGNORECASE,
)

# Where the object of a change verb ends: what follows says why or how it is judged ("so that
# the tests in test_x.py pass"), or gives a command and its inputs ("...: python3 a.py b.txt").
_CLAUSE_END_IN_ASIDES = re.compile(
    r":\s|\s(?:so|such|that|which|until|because|when|where|whose|while|using)\s", re.IGNORECASE
)

_CLAUSE_END = re.compile(_CLAUSE_END_IN_ASIDES.pattern + r"|\s\(", re.IGNORECASE)  # "(" ends one too

_ASKS_COMMIT = re.compile(r"(?:^|[.!?;,:]\s*|\b(?:and|then|please)\s+)commit\b", re.IGNORECASE)

# "put about.css into that same commit", "amend the last commit": a commit again, as --amend
_ASKS_AMEND = re.compile(
    r"\bamend\b|\b(?:into|in|to)\s+(?:that|the|my|this)\s+(?:same|last|previous)\s+commit\b|\bsame\s+commit\b",
    re.IGNORECASE,
)

# "n't" ends a word ("Don't commit anything"), so no word boundary comes before it; "it wasn't
# committed" is no such word
_NO_COMMIT = re.compile(
    r"\b(?:not|never|without)\s+(?:\w+\s+)?commit|n't\s+(?:\w+\s+)?commit\b", re.IGNORECASE
)

_ASKS_BRANCH = re.compile(
    r"\bbranch\s+(?:named|called)\s+[`'\"]?([\w./-]*\w)|\bbranch\s+[`'\"]([\w./-]+)[`'\"]"
    r"|\b(?:create|make|start)\s+(?:a\s+)?(?:new\s+)?(?:git\s+)?branch\s+(?:(?:named|called)\s+)?[`'\"]?([\w./-]*\w)",
    re.IGNORECASE,
)

_COMMITTING = re.compile(r"(?:[-*+]\s+|\d+[.)]\s+)?(?:please\s+)?commit\b", re.IGNORECASE)

# A task that says the tests fail now ("Some tests in test_x.py fail. Fix the bug in x.py.").
SAYS_TESTS_FAIL = re.compile(
    r"\btests?\b(?:[^.\n]|\.(?=\w)){0,40}\b(?:fail\w*|break\w*|broken|errors?)\b|\bfail\w*\s+(?:unit\s+)?tests?\b",
    re.IGNORECASE,
)

FILE_MOVE = re.compile(
    r"\b(?:rename|move)\s+(?:the\s+(?:file|module|script|page|document|config|stylesheet)\s+)?"
    r"[`'\"]?((?:[\w-]+/)*[\w-]+\.\w+)[`'\"]?\s+(?:to|as|into)\s+"
    r"(?:the\s+(?:file|folder)\s+)?[`'\"]?((?:[\w.-]+/)*[\w-]+(?:\.\w+|/))[`'\"]?",
    re.IGNORECASE,
)


def asked_branch(task: str) -> str:
    """The branch the task asks the work to be done on ("create a branch named fix-typo",
    "on the branch `docs`"), or ""."""
    found = _ASKS_BRANCH.search(task)
    return next((g for g in found.groups() if g), "") if found else ""


def asks_commit(task: str) -> bool:
    """The task asks for a commit ("... and commit only README.md", "Commit the fix"), not
    "do not commit" or "the last commit"."""
    return bool(_ASKS_COMMIT.search(task) or asks_amend(task)) and not _NO_COMMIT.search(task)


def asks_amend(task: str) -> bool:
    """The task asks for its change in the last commit ("put about.css into that same commit")."""
    return bool(_ASKS_AMEND.search(task))


def asked_names(text: str) -> list[str]:
    """The file names in `text`: `notes.txt`, `calc/ops.py`, and dotfiles such as `.gitignore`."""
    return named_paths(text) + DOTFILE.findall(text)


def bare_names(task: str, root: Path) -> list[str]:
    """The workspace's files without an extension that the task names as words (`ssh_config`,
    `Makefile`): a file name to the person, not to `named_paths`."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    return [
        e.name
        for e in entries
        if "." not in e.name
        and e.is_file(follow_symlinks=False)
        and re.search(rf"(?<![\w.-]){re.escape(e.name)}(?![\w-])", task)
    ]


# "Write decades.py: ...", "write a script count.py that ...": the file to write right after the verb
_WRITE_FILE = re.compile(
    r"\bwrite\s+(?:an?\s+(?:new\s+|small\s+|short\s+)?(?:python\s+)?(?:script|file|module|program)\s+"
    r"(?:called\s+|named\s+)?)?[`'\"]?((?:[\w-]+/)*[\w-]+\.\w+)[`'\"]?",
    re.IGNORECASE,
)


# "add a .gitignore that ignores ...", "create config/app.toml": a new file as the verb's object
# (not "add .env to .gitignore", a line for another file)
_CREATE_FILE = re.compile(
    r"\b(?:add|create)\s+(?:an?\s+|the\s+)?(?:new\s+)?(?:file\s+)?(?:called\s+|named\s+)?[`'\"]?"
    r"((?:[\w-]+/)*(?:[\w-]+\.\w+|\.[\w-]+(?:\.\w+)?))[`'\"]?(?!\S*\s+(?:to|in|into|inside)\s)",
    re.IGNORECASE,
)


def new_file_asked(task: str, root: Path) -> str:
    """A file the task asks to write, add or create that is not in the workspace ("Write
    decades.py: python3 decades.py FILE prints ...", "- add a .gitignore that ignores ..."); ""
    when none. "Write a summary of notes.txt" asks an answer: the file is not the verb's object.
    In native mode the 1.5B answered with the script in prose, no call, and the run ended 0 with
    nothing written; asked for a .gitignore, it committed without one, and finished."""
    for match in [*_WRITE_FILE.finditer(task), *_CREATE_FILE.finditer(task)]:
        if not os.path.lexists(root / match.group(1)):
            return match.group(1)
    return ""


def file_not_moved(task: str, root: Path) -> str:
    """A file the task asks to rename or move ("Rename notes.txt to NOTES.md") still in the
    workspace under its old name: the 1.5B wrote NOTES.md as a copy, committed it, and was
    then told notes.txt was unchanged. What to run instead; "" when every such file moved."""
    for match in FILE_MOVE.finditer(task):
        old, new = match.group(1), match.group(2)
        if os.path.normpath(old) == os.path.normpath(new) or not os.path.lexists(root / old):
            continue
        mover = "git mv -f" if os.path.lexists(root / ".git") else "mv -f"
        command = f"{mover} {shlex.quote(old)} {shlex.quote(new)}"
        return render("finish_problem_file_not_moved", old=old, new=new, command=command)
    return ""


# a change asked as a noun, opening the sentence: "A few changes to .github/workflows/tests.yml,
# please:", "Some fixes in parser.py:", "I'd like a few changes to ci.yml:" (not "I made some changes
# to app.py", which tells)
_CHANGES_TO = re.compile(
    r"\s*(?:(?:(?:I'?d|I\s+would|we'?d|we\s+would)\s+like|I\s+(?:want|need)|please\s+make|make)\s+)?"
    r"(?:(?:a\s+few|a\s+couple\s+of|some|two|three|four|several|these|the\s+following)\s+)?"
    r"(?:small\s+|quick\s+|little\s+)?(?:changes|edits|fixes|updates|tweaks)\s+(?:to|in)\s+(?=\S)",
    re.IGNORECASE,
)


def asked_files(task: str, *, asides: bool = False) -> list[str]:
    """The files the task asks to change: those named in a sentence opening with a change verb,
    before the clause ends. "Implement f in solution.py so that the tests in test_solution.py
    pass" asks for solution.py only (the tests are what judges it); "... out of the count:
    python3 linecount.py --skip-blank sample.txt must print 3" does not ask for sample.txt (an
    input of the command); "Fix stats.py (do not change the tests)" stops at the "not".
    `asides`: a parenthesis goes on with the clause ("Rename f everywhere (a.py and
    test_a.py)"); else it ends it."""
    asked: list[str] = []
    # a colon ends a sentence too: "test_total fails: fix the bug in bill.py" asks for bill.py
    for sentence in re.split(r"(?<=[.!?;:])\s+|\n", task):
        noun = _CHANGES_TO.match(sentence)  # "A few changes to tests.yml, please:"
        if noun is not None:
            sentence = sentence[noun.end() :]
        elif not _ASKS_CHANGE.match(sentence.strip()) or _COMMITTING.match(sentence.strip()):
            continue  # "Commit notes.txt" asks for a commit of it, not a change to it
        ends = _CLAUSE_END_IN_ASIDES if asides else _CLAUSE_END
        kept = _WITHOUT.split(NEGATION.split(sentence, maxsplit=1)[0], maxsplit=1)[0]
        clause = ends.split(kept, maxsplit=1)[0]
        asked.extend(n for n in asked_names(clause) if n not in asked)
    return asked


def tests_asked(task: str) -> bool:
    """Whether the files the task asks to change are test files only ("Correct those numbers in
    test_discount.py without changing discount.py"): then the code is the judge, and the tests
    are what is varied (their literal values only, agent/versions)."""
    asked = asked_files(task)
    return bool(asked) and all(is_test_file(p) for p in asked)
