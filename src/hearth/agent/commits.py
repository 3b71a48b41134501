"""A commit the task names by its message: copied by its message only, or not undone.

"The branch experiments has a commit 'Fix rounding in total'. Bring just that commit onto main":
the 1.5B edited README.md, committed it with that message, and finished (exit 0); the commit it
was to bring changed price.py. So when the task quotes the message of a commit that is in the
repository, and the commit now at HEAD has that message but is not that commit, it must change
the same files, or the finish goes back with the commit to bring and how (`git cherry-pick`). Read with git in the sandbox, through the one
dispatcher like every check of the finish review; nothing in the repository is trusted to
decide: commit names are taken only as 40 hex digits.

"Undo the commit 'Make red the default colour' with a new commit": the 1.5B rewrote README.md,
committed it with the message asked, and finished (exit 0). A commit undoing another changes
the same files by the same counts of lines the other way round (what it added, it removes), so
when the task asks to undo or revert a commit it quotes, the last commit's per-file counts
(`git log --numstat`: numbers and names, never the content) must mirror that commit's.

"My last commit, 'Add dark mode', is not ready yet. Undo that commit but keep all its changes in
my files, not committed": the 1.5B, not knowing `git reset`, rewrote theme.py until the loop guard
stopped it. When the task asks so and the commit is still the last one, the finish goes back with
the reset that does it.

"Bring back just helpers.py as it was before that commit": the 1.5B wrote a helpers.py of its own
and committed it (exit 0). When the task asks to bring back, restore or recover a file it names,
and git's history deleted that file, the file now must be the one deleted. Only the two versions'
hashes are read, never their content.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass

_QUOTED = re.compile(r"'([^'\n]{3,120})'|\"([^\"\n]{3,120})\"|`([^`\n]{3,120})`")
_NAMES_COMMIT = re.compile(r"\bcommit(?:ted)?\s*,?\s*(?:called\s+|named\s+)?$", re.IGNORECASE)
_SHA = re.compile(r"^[0-9a-f]{40}$")
_ASKS_UNDO = re.compile(r"\b(?:undo|revert|reverse|back\s+out)\b", re.IGNORECASE)

# every commit of every branch with its subject, the first line being HEAD's
LIST = "git rev-parse HEAD && git log --all --format='%H%x09%s'"


def quoted_messages(task: str) -> list[str]:
    """The quoted texts the task names a commit by ("a commit 'Fix rounding in total'", "the
    commit `Add about page`"); not a message it gives for a new one ("commit it with the message
    'Update readme'"), so the usual commit costs no look at git."""
    found = []
    for m in _QUOTED.finditer(task):
        before = task[max(0, m.start() - 30) : m.start()]
        if _NAMES_COMMIT.search(before):
            found.append(next(g for g in m.groups() if g))
    return found


@dataclass(frozen=True)
class Copied:
    """HEAD, carrying the message of `original` (a commit HEAD does not contain)."""

    head: str
    original: str
    message: str


def copied(listing: str, messages: list[str]) -> Copied | None:
    """From LIST's output: HEAD when its message is one the task quotes and another commit with
    that message, not HEAD itself, exists (None otherwise)."""
    lines = listing.strip().splitlines()
    if not lines or not _SHA.match(lines[0].strip()):
        return None
    head = lines[0].strip()
    subjects: dict[str, str] = {}
    for line in lines[1:]:
        sha, _, subject = line.partition("\t")
        if _SHA.match(sha):
            subjects[sha] = subject
    message = subjects.get(head)
    if message not in messages:
        return None
    others = [sha for sha, subject in subjects.items() if subject == message and sha != head]
    return Copied(head, others[0], message) if len(others) == 1 else None


def compare(found: Copied) -> str:
    """A command printing, for HEAD and then the original, the files it changes (names only:
    git printing a commit's content asks the person, as a committed secret may be among it),
    then `contained` when HEAD already holds the original."""
    parts = [
        f"git log -1 --format='== %H' --name-only {shlex.quote(sha)}" for sha in (found.head, found.original)
    ]
    parts.append(f"git merge-base --is-ancestor {shlex.quote(found.original)} HEAD && echo contained")
    return "; ".join(parts) + "; true"


def differs(output: str, found: Copied) -> tuple[list[str], list[str]] | None:
    """The files HEAD and the original change, when they are not the same files (and HEAD does
    not hold the original); None when they are (the same change, as far as names tell), or the
    output cannot be read."""
    if re.search(r"^contained$", output, re.MULTILINE):
        return None
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.splitlines():
        if line.startswith("== "):
            current = blocks.setdefault(line[3:].strip(), [])
        elif current is not None and line.strip():
            current.append(line.strip())
    head, original = blocks.get(found.head), blocks.get(found.original)
    if head is None or not original or set(head) == set(original):
        return None
    return head, original


def asks_undo(task: str) -> bool:
    """The task asks to undo (revert) a commit it names by its quoted message."""
    return bool(_ASKS_UNDO.search(task)) and bool(quoted_messages(task))


# "Undo that commit but keep all its changes in my files, not committed": a reset, not a revert
_KEEPS_CHANGES = re.compile(
    r"\bkeep(?:s|ing)?\b[^.;]{0,40}\bchanges\b|\b(?:un|not\s+)committed\b", re.IGNORECASE
)


def keeps_changes(task: str) -> bool:
    """The task asks to undo a commit it quotes and keep its changes in the files, uncommitted:
    the commit is to go (`git reset`), not to be undone by a new one."""
    return asks_undo(task) and bool(_KEEPS_CHANGES.search(task))


def named(listing: str, messages: list[str]) -> tuple[str, str, str] | None:
    """From LIST's output: HEAD, and the one commit other than HEAD whose message the task
    quotes, with that message (None when there is no such single commit)."""
    lines = listing.strip().splitlines()
    if not lines or not _SHA.match(lines[0].strip()):
        return None
    head = lines[0].strip()
    found = []
    for line in lines[1:]:
        sha, _, subject = line.partition("\t")
        if _SHA.match(sha) and subject in messages and sha != head:
            found.append((sha, subject))
    return (head, *found[0]) if len(set(found)) == 1 else None


def counts(head: str, original: str) -> str:
    """A command printing each commit's per-file line counts (`== sha` before each)."""
    return " && ".join(
        f"git log -1 --numstat --format='== %H' {shlex.quote(sha)}" for sha in (head, original)
    )


def undoes(output: str, head: str, original: str) -> bool | None:
    """Whether HEAD's counts mirror the original's, file by file (what one adds, the other
    removes); None when the output cannot be read."""
    blocks: dict[str, dict[str, tuple[str, str]]] = {}
    current: dict[str, tuple[str, str]] | None = None
    for line in output.splitlines():
        if line.startswith("== "):
            current = blocks.setdefault(line[3:].strip(), {})
        elif current is not None and line.count("\t") >= 2:
            added, removed, path = line.split("\t", 2)
            current[path] = (added, removed)
    if head not in blocks or not blocks.get(original):
        return None
    mine = blocks[head]
    return all(mine.get(path) == (removed, added) for path, (added, removed) in blocks[original].items())


# "The message of my last commit has a typo: 'Add sleeping bgas'. Change it to 'Add sleeping
# bags'": a commit's message to change, quoted before the new one
_CHANGES = re.compile(r"\b(?:reword|change|fix|correct|edit|rewrite|amend)\b", re.IGNORECASE)
_OF_COMMIT = re.compile(r"\b(?:message|subject|commit|reword)", re.IGNORECASE)
_TO_QUOTED = re.compile(
    r"\b(?:to|as|into)\s+(?:(?:read|say|be)\s+)?(?:'([^'\n]{3,120})'|\"([^\"\n]{3,120})\"|`([^`\n]{3,120})`)"
)
_SENTENCE_END = re.compile(r"[.!?;]\s+")
# the words that may stand between the old message and "to 'new'": "'OLD'. Change it to 'NEW'"
_ABOUT_IT = frozenset(
    [
        "reword",
        "change",
        "fix",
        "correct",
        "edit",
        "rewrite",
        "amend",
        "it",
        "its",
        "the",
        "that",
        "this",
        "message",
        "subject",
        "commit",
        "commits",
        "please",
        "then",
        "now",
        "so",
        "and",
        "can",
        "you",
        "s",
        "my",
        "last",
    ]
)
SUBJECTS = "git log -n 50 --format=%s"


def reword_asked(task: str) -> tuple[str, str] | None:
    """(old, new): the task asks to change a commit's message, quoting the old message (in a
    sentence about a commit's message) and then the new one after "to"; None otherwise ("change
    the name from 'shop' to 'store' and commit with the message 'Rename'" changes a file)."""
    to = _TO_QUOTED.search(task)
    if to is None or not _CHANGES.search(_QUOTED.sub("", task)):
        return None
    new = next(g for g in to.groups() if g)
    for m in reversed(list(_QUOTED.finditer(task[: to.start()]))):
        old = next(g for g in m.groups() if g)
        sentence = _SENTENCE_END.split(_QUOTED.sub("''", task[: m.start()]))[-1]
        between = re.findall(r"[a-z]+", task[m.end() : to.start()].lower())
        if old != new and _OF_COMMIT.search(sentence) and set(between) <= _ABOUT_IT:
            return old, new
        return None  # "revert the commit 'X' and change the title to 'Y'": another thing changes
    return None


def not_reworded(subjects: str, old: str, new: str) -> str | None:
    """What is wrong, from the last commits' subjects (newest first): "last" when the last commit
    still has the old message, "older" when an older one does, "" when only the new one is there;
    None when neither is (no commit to tell by)."""
    lines = [line.strip() for line in subjects.splitlines()]
    if old not in lines and new not in lines:
        return None
    if old not in lines:
        return ""
    return "last" if lines[0] == old else "older"


# "Squash them into one commit with the message 'Add search box'": the message the new commit is
# to have, and how many of the last commits (when the task says: "my last two commits")
_ASKS_SQUASH = re.compile(r"\bsquash(?:es|ed|ing)?\b", re.IGNORECASE)
_NEW_MESSAGE = re.compile(
    r"\bmessage\s+(?:'([^'\n]{1,120})'|\"([^\"\n]{1,120})\"|`([^`\n]{1,120})`)", re.IGNORECASE
)
_LAST_COMMITS = re.compile(r"\blast\s+(two|three|four|five|[2-9])\s+commits\b", re.IGNORECASE)
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}
SUBJECT = "git log -1 --format=%s"


@dataclass(frozen=True)
class Squash:
    """A squash the task asks for: the new commit's message, and how many commits (0: not said)."""

    message: str
    count: int


def squash_asked(task: str) -> Squash | None:
    """The squash the task asks for, when it gives the new commit's message."""
    if not _ASKS_SQUASH.search(_QUOTED.sub("", task)):
        return None  # "squash" in the task's words, not in a message it quotes
    message = _NEW_MESSAGE.search(task)
    if message is None:
        return None
    last = _LAST_COMMITS.search(task)
    word = last.group(1).lower() if last else ""
    count = _NUMBERS.get(word) or (int(word) if word.isdigit() else 0)
    return Squash(next(g for g in message.groups() if g), count)


def new_message(task: str) -> str | None:
    """The message the task gives the commit it asks for ("commit all of that with the message
    'Sort notes by date'"); None when it gives none, or the message is another's: a squash's, a
    reword's (agent/commits), a tag's (agent/tags)."""
    if squash_asked(task) is not None or reword_asked(task) is not None:
        return None
    message = _NEW_MESSAGE.search(task)
    if message is None or re.search(r"\btag\b", task[: message.start()], re.IGNORECASE):
        return None
    return next(g for g in message.groups() if g).strip()


_STATUS_LINE = re.compile(r"^[ MADRCUT?!]{2} (?:.* -> )?(.+)$")


def uncommitted(porcelain: str) -> list[str]:
    """The paths `git status --porcelain` lists (changed, staged but not committed, or new; a
    rename's new name); nothing from any other text ("(no output)")."""
    return [m.group(1).strip('"') for m in map(_STATUS_LINE.match, porcelain.splitlines()) if m]


def squash_call(squash: Squash) -> str:
    """How to squash with the git_commit tool (its `squash` option)."""
    count = str(squash.count) if squash.count else "N"
    return f'git_commit {{"message": {json.dumps(squash.message)}, "squash": {count}}}'


def squash_command(squash: Squash) -> str:
    """How to squash: a soft reset of the commits, then one commit with the message."""
    back = f"HEAD~{squash.count}" if squash.count else "HEAD~N"
    how = "" if squash.count else " (N: how many commits to squash)"
    return f"`git reset --soft {back}`{how}, then `git commit -m {shlex.quote(squash.message)}`"


# "Merge the branch captions into main", "merge the `feature/x` branch into main"
_ASKS_MERGE = re.compile(
    r"\bmerge\s+(?:the\s+)?(?:branch\s+[`'\"]?(?P<named>\w[\w./-]*?)[`'\"]?"
    r"|[`'\"]?(?P<before>\w[\w./-]*?)[`'\"]?\s+branch)\s+(?:into|onto|to|in)\b",
    re.IGNORECASE,
)


def merge_asked(task: str) -> str:
    """The branch the task asks to merge into the current one, said as a branch ("the branch
    captions", "the `captions` branch"); "" when it asks none."""
    match = _ASKS_MERGE.search(task)
    return (match.group("named") or match.group("before")) if match else ""


def merged_command(branch: str) -> str:
    """A read-only git command printing `merged` when `branch`'s last commit is in HEAD's history,
    `not merged` when not, `unknown` when there is no such branch."""
    ref = shlex.quote(f"{branch}^{{commit}}")
    name = shlex.quote(branch)
    return (
        f"if git rev-parse --verify --quiet {ref} >/dev/null; then "
        f"if git merge-base --is-ancestor {name} HEAD; then echo merged; else echo 'not merged'; fi; "
        "else echo unknown; fi"
    )


# "Rebase the branch vegan onto main", "rebase `feature/x` on main"
_REF = r"[`'\"]?(\w(?:[\w./-]*\w)?)[`'\"]?"
_ASKS_REBASE = re.compile(
    rf"\brebase\s+(?:the\s+)?(?:branch\s+)?{_REF}(?:\s+branch)?\s+(?:onto|on(?:\s+top\s+of)?)\s+"
    rf"(?:the\s+)?(?:branch\s+)?{_REF}(?:\s+branch)?(?![\w/-])",
    re.IGNORECASE,
)


def rebase_asked(task: str) -> tuple[str, str] | None:
    """The branch the task asks to rebase and the one to rebase it onto, said as branches."""
    match = _ASKS_REBASE.search(task)
    return (match.group(1), match.group(2)) if match else None


def rebased_command(branch: str, onto: str) -> str:
    """A read-only git command printing `rebased` when `onto`'s last commit is in `branch`'s
    history and no merge commit is between them, `not rebased` when not, `unknown` when either
    branch is not there."""
    b, o = shlex.quote(branch), shlex.quote(onto)
    refs = " && ".join(
        f"git rev-parse --verify --quiet {shlex.quote(r + '^{commit}')} >/dev/null" for r in (branch, onto)
    )
    return (
        f"if {refs}; then "
        f'if git merge-base --is-ancestor {o} {b} && [ -z "$(git rev-list --merges {o}..{b})" ]; '
        "then echo rebased; else echo 'not rebased'; fi; "
        "else echo unknown; fi"
    )


# "Bring back just helpers.py", "restore config.ini", "recover the deleted notes.md"
_ASKS_RESTORE = re.compile(
    r"\b(?:bring(?:s|ing)?\s+(?:\S+\s+){0,2}?back|restor(?:e|ing)|recover|undelete|put\s+back|get\s+back)\b",
    re.IGNORECASE,
)


def restore_asked(task: str, named: list[str]) -> list[str]:
    """The files named in the task (`named`) that it asks to bring back, when it asks that."""
    return named[:3] if _ASKS_RESTORE.search(_QUOTED.sub("", task)) else []


def restored_command(path: str) -> str:
    """A read-only command printing, when a commit in HEAD's history deleted `path`: `== sha` of
    the last such commit, then `missing` when the file is not there, or the name of the version
    deleted and of the file now (hashes: git prints no content, runs no filter)."""
    q = shlex.quote(path)
    return (
        f"d=$(git log --diff-filter=D --format=%H -n 1 -- {q}); "
        'if [ -n "$d" ]; then echo "== $d"; '
        f"if [ ! -f {q} ]; then echo missing; else "
        f'git rev-parse --verify --quiet "$d^:"{q}; git hash-object --no-filters -- {q}; '
        "fi; fi; true"
    )


def not_restored(output: str) -> str | None:
    """From restored_command's output: the deleting commit when the file is missing or is not
    the version deleted; None when it is back (or git cannot tell)."""
    lines = [line.strip() for line in output.strip().splitlines()]
    if not lines or not lines[0].startswith("== ") or not _SHA.match(lines[0][3:]):
        return None
    sha = lines[0][3:]
    if lines[1:2] == ["missing"]:
        return sha
    if len(lines) != 3 or not all(_SHA.match(line) for line in lines[1:]):
        return None
    return sha if lines[1] != lines[2] else None
