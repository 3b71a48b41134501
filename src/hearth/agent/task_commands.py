"""The commands a task gives: "python3 linecount.py --skip-blank sample.txt must print 3",
"python3 export.py contacts.json contacts.csv writes ...". What they run (a script in the
workspace with its options and files, never a word of the task's sentence), what the task says
they print (`stated_output`), which outputs must stay as they are, which workspace files they read
(`command_inputs`) and write (`command_outputs`).

Read from the task's words and the workspace alone: the finish review (agent/done) runs these
commands as evidence, and the hands-off rules (agent/handsoff) keep their inputs and outputs from
the model's own writes.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from hearth.agent.named_files import named_at

# "python3 client.py", "python linecount.py --skip-blank sample.txt" in the task's words
# (up to the next such command: "... must print 3, and python3 a.py b.txt must print 4")
SCRIPT_RUN = re.compile(
    r"(?<![\w/.-])python3?\s+((?:[\w-]+/)*[\w-]+\.py)\b((?:(?!(?<![\w/.-])python3?\s)[^\n`])*)"
)

# the task's words after a command: a quoted text is one word ("--sep ' | ' colours.txt")
_WORD = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|\S+")

_OPTION_VALUE = re.compile(r"-?\d+(?:\.\d+)?|'[^']*'|\"[^\"]*\"|[A-Za-z_]\w*=[\w.:@+/-]+")

# The words that end a command the task gives and go on with what it should do
_TASK_WORDS = frozenset(
    {"must", "should", "prints", "print", "outputs", "output", "returns", "return", "gives", "still",
     "now", "will", "again", "and", "then", "to", "is", "works", "runs", "keeps", "exits", "reads",
     "takes", "printing", "writes", "creates", "saves", "produces", "generates", "exports", "give", ""}
)  # fmt: skip

# the task's words after a command saying it writes the file it names last ("python3 export.py
# contacts.json contacts.csv writes the contacts as a CSV file")
_SAYS_WRITES = re.compile(
    r"(?:must\s+|should\s+|will\s+|then\s+)?(?:write|create|save|produce|generate|export)s?\b", re.IGNORECASE
)

_OUTPUT_NAME = re.compile(r"(?:[\w-]+/)*[\w-]+\.[A-Za-z]\w*")

# after a command's plain arguments, the words saying what it prints
_PRINTS_WORDS = frozenset({"must", "should", "prints", "outputs", "returns", "gives", "give", "still"})
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")

# the task's words after a command saying what it prints now is wrong ("... give the wrong number
# of miles", "prints an incorrect total")
_SAYS_WRONG = re.compile(r"^(?:\w+\s+){0,3}?(?:wrong|incorrect)\b", re.IGNORECASE)

_PLAIN_ARGUMENT = re.compile(r"[A-Za-z0-9][\w.:@+-]*(?:=[\w.:@+/-]+)?")

# the task's words after a command saying its output stays as it is
_SAME_AS_BEFORE = re.compile(
    r"\b(?:print\w*|output\w*|show\w*)\s+(?:exactly\s+)?(?:the\s+same(?:\s+as\s+(?:before|now|it\s+does\s+now))?"
    r"(?=\s*(?:[.,;:!)]|$|(?:and|after|when|as)\b))|what\s+it\s+(?:prints|outputs|shows)\s+now\b)"
    r"|\b(?:same|unchanged)\s+(?:output|as\s+before)\b",
    re.IGNORECASE,
)

OPTION = re.compile(r"--?[A-Za-z][\w-]*(?:=[\w./-]+)?")

# "python3 agenda.py FILE reads a JSON list like meetings.json": a file placeholder, and the
# workspace file the task gives as its example (run with it, the script shows a traceback)
_FILE_PLACEHOLDER = re.compile(r"FILE|PATH|INPUT|CSV|JSON|LOG|[A-Z]+_FILE")

_FOLDER_PLACEHOLDER = re.compile(r"FOLDER|DIR|DIRECTORY|[A-Z]+_(?:DIR|FOLDER)")

_EXAMPLE_FILE = re.compile(r"\blike\s+`?((?:[\w-]+/)*[\w-]+\.\w+)")


def wrong_commands(task: str, root: Path, limit: int = 3) -> list[str]:
    """The task's commands (see `task_checks`) whose output the task says is wrong now: "fix the
    bug that makes python3 units.py 10 km give the wrong number of miles" (the 1.5B changed
    nothing, committed, and finished). A fix changes what they print."""
    return [command for command, after in _task_runs(task, root)[:limit] if _SAYS_WRONG.match(after.strip())]


def _task_runs(task: str, root: Path) -> list[tuple[str, str]]:
    """Each command the task gives (see `task_checks`) with the task's words after it."""
    runs: list[tuple[str, str]] = []
    for match in SCRIPT_RUN.finditer(task):
        script = match.group(1)
        if not os.path.isfile(root / script) or os.path.islink(root / script):
            continue
        words = [f"python3 {shlex.quote(script)}"]
        found = list(_WORD.finditer(match.group(2)))
        rest = [m.group(0) for m in found]
        example = _example_file(task[match.start() :], root)
        while rest and (
            OPTION.fullmatch(arg := rest[0].strip("`'\",;"))
            or os.path.isfile(root / arg)
            or (example and _FILE_PLACEHOLDER.fullmatch(arg))
            or _output_argument(arg, rest[1:])
        ):
            arg = example if _FILE_PLACEHOLDER.fullmatch(arg) and example else arg
            words.append(shlex.quote(arg))
            rest.pop(0)
            if arg.startswith("-") and rest and _OPTION_VALUE.fullmatch(rest[0].rstrip(",;")):
                # the option's value: --precision 3, --sep ' | ', --where genre=poetry
                words.append(shlex.quote(rest.pop(0).rstrip(",;").strip("'\"")))
        # plain words are arguments after a file or an option, or from a number on ("python3
        # units.py 10 km give ...")
        more = _plain_arguments(rest) if len(words) > 1 or (rest and _NUMBER.fullmatch(rest[0])) else 0
        words += [shlex.quote(rest.pop(0).rstrip(",;")) for _ in range(more)]
        if rest and rest[0].strip("`'\",;.:").lower() not in _TASK_WORDS:
            continue  # an argument that is neither ("python3 todo.py done N"): not run half-given
        command = " ".join(words) + " < /dev/null"
        # the task's own text after the arguments (its spacing kept: `{"a": 1}` is an output)
        after = match.group(2)[found[len(found) - len(rest)].start() :] if rest else ""
        if task[match.end() : match.end() + 1] == "`":  # "`python3 a.py` prints `3`", "... must print `3`"
            tail = task[match.end() :].split("\n", 1)[0]
            after = f"{after} {tail}" if after else tail[1:]
        if command not in (c for c, _ in runs):
            runs.append((command, after))
    return runs


def _output_argument(arg: str, after: list[str]) -> bool:
    """Whether `arg` is the file the command writes, by the task's words `after` it: "python3
    export.py contacts.json contacts.csv writes ..." (not there before the command runs)."""
    return (
        bool(_OUTPUT_NAME.fullmatch(arg))
        and not arg.endswith(".py")
        and bool(_SAYS_WRITES.match(" ".join(after[:2])))
    )


def _plain_arguments(rest: list[str]) -> int:
    """How many of the words `rest` starts with are plain arguments of a command that already has
    a file or an option ("python3 csvcol.py --where genre=poetry books.csv title must print ..."):
    at most two words such as `title` or `genre=poetry`, none a placeholder (`N`, `COLUMN`), right
    before the words saying what the command prints. 0 when they are not."""
    for count in (1, 2):
        if len(rest) <= count or rest[count].lower() not in _PRINTS_WORDS:
            continue
        if all(_PLAIN_ARGUMENT.fullmatch(w.rstrip(",;")) and not w.isupper() for w in rest[:count]):
            return count
    return 0


def _example_file(text: str, root: Path) -> str:
    """The workspace file the task gives as the example of a command's input ("like
    meetings.json"), in the text from the command on; "" when none is a file there."""
    match = _EXAMPLE_FILE.search(text)
    if match is None or os.path.islink(root / match.group(1)) or not os.path.isfile(root / match.group(1)):
        return ""
    return match.group(1)


# "must print 3.375, and ...", "should output `ok`", "prints 'done'": the output right after the
# command, when it is one number or quoted text; "must print 3 lines" says no output
_STATED = re.compile(
    r"^(?:must|should|will|now)?\s*(?:print|prints|output|outputs)\s+(?:exactly\s+)?"
    r"(?:`([^`\n]+)`|\"([^\"\n]+)\"|'([^'\n]+)'|(-?\d+(?:\.\d+)?)(?=[,;)]|\.?\s*$|\.\s|\s+(?:and|or|but)\b))",
    re.IGNORECASE,
)

_EXACTLY = re.compile(
    r"^(?:must|should|will|now)?\s*(?:print|prints|output|outputs)\s+exactly\s+(?![`'\"])(\S.*?)(?=\.\s+[A-Z]|\.?\s*$)",
    re.IGNORECASE,
)

_SYMBOL = re.compile(r"[{}\[\]()<>:=|/#@%$*+\"']")  # "exactly two lines" is prose, not an output

_MORE_QUOTED = re.compile(r"(?:\s*(?:,|,?\s+(?:and|then))\s*`[^`\n]+`)+")

_PER_LINE = re.compile(
    r",?\s*(?:one|each)\s+(?:per|a|on\s+(?:its|a)\s+own)\s+line|,?\s*on\s+separate\s+lines", re.I
)


def task_commands(task: str, root: Path, limit: int = 3) -> list[str]:
    """The `python3 script.py ...` commands the task gives (see `task_checks`)."""
    return [command for command, _ in task_checks(task, root, limit)]


def task_checks(task: str, root: Path, limit: int = 3) -> list[tuple[str, str | None]]:
    """The `python3 script.py ...` commands the task gives, for scripts in the workspace, each
    with the output the task says it prints, when it says one exactly (see `stated_output`). The
    script's arguments are kept while they are options or files in the workspace (the words after
    them are the task's: "python3 a.py b.txt must print 3"). Nothing else the task says is run."""
    return [(command, stated_output(after)) for command, after in _task_runs(task, root)[:limit]]


def unchanged_commands(task: str, root: Path, limit: int = 3) -> list[str]:
    """The task's commands (see `task_checks`) whose output the task says must stay as it is:
    "python3 checkup.py must print the same as before", "keep python3 shipping.py printing
    exactly what it prints now" (the 1.5B moved a computation into a function and dropped a
    column's width from the printed line, and finished with exit 0)."""
    return [
        command for command, after in _task_runs(task, root)[:limit] if _SAME_AS_BEFORE.search(after[:80])
    ]


def command_outputs(task: str, root: Path) -> list[tuple[str, str]]:
    """(command, file) for each of the task's commands (see `task_checks`) that the task says
    writes the file it names last: that file is the command's to write, not the model's."""
    found: list[tuple[str, str]] = []
    for command, after in _task_runs(task, root):
        last = shlex.split(command.removesuffix(" < /dev/null"))[-1]
        if _SAYS_WRITES.match(after.lstrip("`'\",; ")) and _output_argument(last, after.split()):
            found.append((command, os.path.normpath(last)))
    return found


def command_inputs(task: str, root: Path) -> list[str]:
    """The workspace files the task names only inside its `python3 script.py ...` commands (as
    an argument, or as the example of the input: "like expenses.csv"), never elsewhere: what
    those commands read, which the task does not ask to change ("python3 csvcol.py --where
    genre=poetry books.csv title must print ..."; the 1.5B wrote its script into books.csv).
    The scripts themselves are not inputs."""
    spans = [(m.start(2), m.end(2)) for m in SCRIPT_RUN.finditer(task)]
    mentions = [(name, any(start <= at < end for start, end in spans)) for name, at in named_at(task)]
    outside = {name for name, inside in mentions if not inside}
    inputs: list[str] = []
    for name, inside in mentions:
        if not inside or name in outside or name in inputs or name.endswith(".py"):
            continue
        if (root / name).is_file() and not (root / name).is_symlink():
            inputs.append(name)
    return inputs


def stated_output(words: str) -> str | None:
    """The exact output the task's words right after a command say it prints, or None. Several
    quoted lines ("must print `1: ERROR`, `3: error` and `4: Errors`, one per line") are that
    output line by line when the task says they are lines, else not one exact output."""
    text = words.strip()
    match = _STATED.match(text)
    if match is None:
        exact = _EXACTLY.match(text)  # "must print exactly {"lines": 3}.": unquoted, but exact
        return exact.group(1) if exact and _SYMBOL.search(exact.group(1)) else None
    first = next(g for g in match.groups() if g is not None)
    more = _MORE_QUOTED.match(text, match.end())
    if match.group(1) is None or more is None:
        return first
    lines = [first, *re.findall(r"`([^`\n]+)`", more.group(0))]
    return "\n".join(lines) if _PER_LINE.match(text, more.end()) else None


# a workspace file the task names as what a command prints: "must print exactly guide_toc.txt",
# "should output what expected.txt holds", "must print the same as wanted.txt"
_REFERENCE = (
    r"(?:must|should|will|has\s+to|needs?\s+to)\s+(?:print|output|show|give)s?\s+(?:exactly\s+)?"
    r"(?:the\s+same\s+as\s+|what\s+(?:is\s+in\s+)?|the\s+(?:contents?|text|lines)\s+of\s+)?"
    r"`?(?P<reference>(?:[\w-]+/)*[\w-]+\.\w+)`?"
)
_PRINTS_REFERENCE = re.compile(rf"^{_REFERENCE}", re.IGNORECASE)
# what the task says prints, after the input it is given: "it", "the script", "toc.py"
_SUBJECT = r"(?:it|the\s+script|the\s+command|(?:[\w-]+/)*[\w-]+\.py)"
# "For guide.md it must print exactly guide_toc.txt", "on notes.md, toc.py should print ..."
_FOR_INPUT = re.compile(
    r"\b(?:for|on|with|given)\s+`?(?P<input>(?:[\w-]+/)*[\w-]+\.\w+)`?,?\s+"
    rf"{_SUBJECT}\s+{_REFERENCE}",
    re.IGNORECASE,
)


def reference_outputs(task: str, root: Path) -> list[tuple[str, str]]:
    """(command, file) for each workspace file the task says one of its commands must print:
    "python3 toc.py guide.md must print exactly guide_toc.txt", or, for a command given with a
    placeholder, "`python3 toc.py FILE` prints a table of contents ... For guide.md it must print
    exactly guide_toc.txt" (the 1.5B wrote its own guide_toc.txt, and a toc.py that printed
    something else, and finished). The file is the expected output: the script's to match, not
    the model's to write."""
    found: list[tuple[str, str]] = []
    for command, after in _task_runs(task, root):
        match = _PRINTS_REFERENCE.match(after.strip().lstrip("`'\",;: "))
        if match and _reference_file(root, match.group("reference")):
            found.append((command, os.path.normpath(match.group("reference"))))
    for match in _FOR_INPUT.finditer(task):
        given, reference = match.group("input"), match.group("reference")
        if given.endswith(".py") or not _reference_file(root, given) or not _reference_file(root, reference):
            continue
        command = _with_input(task, root, given)
        if command and (command, os.path.normpath(reference)) not in found:
            found.append((command, os.path.normpath(reference)))
    return found


# "For the photos folder here it should print:" and the lines right after it (or a fenced block)
_FOR_INPUT_BLOCK = re.compile(
    r"\b(?:for|on|with|given)\s+(?:the\s+)?`?(?P<input>(?:[\w.-]+/)*[\w.-]+?)`?"
    r"(?:\s+(?:folder|file|directory|dir))?(?:\s+here)?,?\s+"
    rf"{_SUBJECT}\s+(?:must|should|will|has\s+to)\s+"
    r"(?:print|output|show)s?(?:\s+exactly)?\s*:[ \t]*\n",
    re.IGNORECASE,
)
_FENCED = re.compile(r"```[\w-]*\n(.*?)\n?```", re.DOTALL)


def example_outputs(task: str, root: Path) -> list[tuple[str, str]]:
    """(command, text) for each output the task shows in lines of its own for a command given with
    a placeholder, run on a workspace file or folder: "`python3 dupes.py FOLDER` should find ...
    For the photos folder here it should print:" and the lines after it, up to a blank line (or a
    fenced block there). The 1.5B's dupes.py printed a Python list where the task shows lines,
    and it finished with exit 0."""
    found: list[tuple[str, str]] = []
    for match in _FOR_INPUT_BLOCK.finditer(task):
        given = match.group("input").rstrip(".")
        path = root / given
        if given.endswith(".py") or os.path.islink(path) or not path.exists():
            continue
        rest = task[match.end() :]
        fenced = _FENCED.match(rest)
        block = fenced.group(1) if fenced else rest.split("\n\n", 1)[0]
        text = "\n".join(line.rstrip() for line in block.strip("\n").splitlines())
        command = _with_input(task, root, given)
        if command and text.strip() and (command, text) not in found:
            found.append((command, text))
    return found


def _reference_file(root: Path, name: str) -> bool:
    """Whether `name` is a plain file in the workspace that is not a script."""
    return not name.endswith(".py") and os.path.isfile(root / name) and not os.path.islink(root / name)


def _with_input(task: str, root: Path, given: str) -> str:
    """The first command the task gives with a file placeholder (`python3 toc.py FILE`, for a
    script in the workspace), run on `given` in its place; "" when there is none."""
    for match in SCRIPT_RUN.finditer(task):
        script = match.group(1)
        if not os.path.isfile(root / script) or os.path.islink(root / script):
            continue
        words = [w.strip("`'\",;:") for w in match.group(2).split()[:6]]
        taken: list[str] = []
        for word in words:
            if _FILE_PLACEHOLDER.fullmatch(word) or _FOLDER_PLACEHOLDER.fullmatch(word):
                args = [*taken, given]
                return " ".join(["python3", shlex.quote(script), *map(shlex.quote, args)]) + " < /dev/null"
            value = bool(taken) and taken[-1].startswith("-") and _OPTION_VALUE.fullmatch(word) is not None
            if not (OPTION.fullmatch(word) or value):
                break
            taken.append(word)
    return ""
