"""A task that names the file its command must print ("For guide.md it must print exactly
guide_toc.txt"): the finish is judged by running the command and comparing, line by line, with
the file as the task showed it. Replay of a held-out run of the 1.5B in grammar mode: it wrote
toc.py, then its own guide_toc.txt, ran a toc.py that printed something else, and finished with
exit 0."""

from __future__ import annotations

from pathlib import Path

from e2e.test_actions import act, events, finished, run, wrote
from hearth.core.events import Notice, ToolResult
from hearth.llm.actions import JSON_OBJECT
from hearth.testing import ScriptedServer
from support import HearthCli

SMALL = "qwen2.5-coder-1.5b-instruct"
NO_VERSIONS = {"HEARTH_VERSIONS": "0"}
TASK = (
    "Write toc.py. `python3 toc.py FILE` prints a table of contents for a Markdown file: one line "
    "per ## heading, `- [Heading](#anchor)`, the anchor lowercased with spaces turned into hyphens. "
    "For guide.md it must print exactly guide_toc.txt."
)
GUIDE = "# Compost\n\n## Getting started\n\nText.\n\n## Turning the heap\n\nMore.\n"
WANTED = "- [Getting started](#getting-started)\n- [Turning the heap](#turning-the-heap)\n"
RIGHT = (
    "import sys\n\nfor line in open(sys.argv[1]):\n    if line.startswith('## '):\n"
    '        title = line[3:].strip()\n        print(f\'- [{title}](#{title.lower().replace(" ", "-")})\')\n'
)
WRONG = RIGHT.replace("- [{title}]", "- [{title.lower()}]")


def setup(workspace: Path) -> None:
    (workspace / "guide.md").write_text(GUIDE)
    (workspace / "guide_toc.txt").write_text(WANTED)


def finish_notices(ws: Path) -> list[Notice]:
    return [e for e in events(ws) if isinstance(e, Notice) and e.reason == "finish_unsupported"]


def test_a_script_that_prints_other_than_the_named_file_goes_back_then_ends_0_when_it_matches(
    hearth: HearthCli, workspace: Path
) -> None:
    setup(workspace)
    script = [
        *wrote("toc.py", WRONG),
        *wrote("guide_toc.txt", "- [getting started](#getting-started)\n"),  # its own expected output
        act("finish", summary="The task is done."),
        *wrote("toc.py", RIGHT),
        act("finish", summary="The task is done."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, TASK, **NO_VERSIONS)
        assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "guide_toc.txt").read_text() == WANTED  # the expected output was never written
    refused = [e for e in events(workspace) if isinstance(e, ToolResult) and e.name == "write" and not e.ok]
    assert len(refused) == 1 and "expected output" in refused[0].output
    [notice] = finish_notices(workspace)
    assert "must print what guide_toc.txt holds" in notice.text
    assert "- [Getting started](#getting-started)" in notice.text  # the line it should print
    assert "- [getting started](#getting-started)" in notice.text  # and the line it printed
    assert finished(workspace).status == "done"


def test_finishing_again_over_the_same_difference_does_not_end_0(hearth: HearthCli, workspace: Path) -> None:
    setup(workspace)
    script = [*wrote("toc.py", WRONG), *[act("finish", summary="The task is done.")] * 4]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, TASK, **NO_VERSIONS)
    assert res.code != 0, res.stdout[-2000:]
    assert "must print what guide_toc.txt holds" in finish_notices(workspace)[0].text


NAMES_TASK = (
    "Could you write names.py? `python3 names.py FOLDER` should print the names of the files "
    "under FOLDER, sorted, one per line.\n\nFor the docs folder here it should print:\n"
    "a.txt\nb.txt\n"
)
NAMES_RIGHT = "import os\nimport sys\n\nfor name in sorted(os.listdir(sys.argv[1])):\n    print(name)\n"
NAMES_LIST = "import os\nimport sys\n\nprint(sorted(os.listdir(sys.argv[1])))\n"


def test_lines_the_task_shows_for_a_folder_are_compared_with_what_the_script_prints(
    hearth: HearthCli, workspace: Path
) -> None:
    """Replay of the 1.5B's dupes.py: the task showed the lines it must print for the photos
    folder, the script printed a Python list, the model ran it and finished with exit 0."""
    (workspace / "docs").mkdir()
    (workspace / "docs" / "b.txt").write_text("b")
    (workspace / "docs" / "a.txt").write_text("a")
    script = [
        *wrote("names.py", NAMES_LIST),
        act("shell", command="python3 names.py docs"),
        act("finish", summary="The script prints the names."),
        *wrote("names.py", NAMES_RIGHT),
        act("finish", summary="The script prints the names."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, NAMES_TASK, **NO_VERSIONS)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = finish_notices(workspace)
    assert "the task shows what `python3 names.py docs` must print" in notice.text
    assert "['a.txt', 'b.txt']" in notice.text  # what it printed, beside the line wanted
    assert finished(workspace).status == "done"
