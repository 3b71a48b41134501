"""A config file's sections a write left out that the task never named (agent/sections)."""

from __future__ import annotations

from hearth.agent.sections import doubled, dropped, read_text, sections

CONFIG = """# Team hosts.
Host build
    Port 22

Host old-mirror
    User sync

Host db
    User postgres

Host *
    ServerAliveInterval 60
"""
TASK = "In ssh_config, change the Port of the build host to 2222, delete the old-mirror host, keep the rest."


def test_a_section_the_task_names_may_go_and_one_it_does_not_name_may_not() -> None:
    assert list(sections(CONFIG)) == ["Host build", "Host old-mirror", "Host db", "Host *"]
    asked = CONFIG.replace("Port 22", "Port 2222").replace("Host old-mirror\n    User sync\n\n", "")
    assert dropped(CONFIG, asked, TASK) == []
    too_much = asked.replace("Host db\n    User postgres\n\n", "")
    assert dropped(CONFIG, too_much, TASK) == ["Host db\n    User postgres"]


def test_ini_sections_and_a_read_that_showed_only_part_of_the_file() -> None:
    ini = "[tox]\nenvlist = py311\n\n[testenv:docs]\ncommands = mkdocs build\n"
    assert dropped(ini, "[tox]\nenvlist = py311\n", "Add py312 to the envlist.") == [
        "[testenv:docs]\ncommands = mkdocs build"
    ]
    assert dropped(ini, "[tox]\nenvlist = py311\n", "Delete the [testenv:docs] section.") == []
    numbered = "1\t[tox]\n2\tenvlist = py311"
    assert read_text(numbered) == "[tox]\nenvlist = py311\n"
    assert read_text(numbered + "\n[lines 1-2 of 40; use offset=3 to read on]") is None


CHANGELOG = """# Changelog

## [Unreleased]

### Added
- Export the list as CSV.
- A dark theme.

## [1.3.2] - 2026-09-14
"""
RELEASE = "In CHANGELOG.md, release what is under Unreleased as version 1.4.0."


def test_a_block_written_anew_and_left_where_it_was_is_a_copy() -> None:
    entries = "### Added\n- Export the list as CSV.\n- A dark theme.\n"
    twice = CHANGELOG.replace("## [1.3.2]", "## [1.4.0] - 2026-11-20\n\n" + entries + "\n## [1.3.2]")
    assert doubled(CHANGELOG, twice, RELEASE) == entries.rstrip("\n")
    moved = CHANGELOG.replace("## [Unreleased]\n", "## [Unreleased]\n\n## [1.4.0] - 2026-11-20\n")
    assert doubled(CHANGELOG, moved, RELEASE) == ""


def test_short_runs_runs_already_twice_and_asked_copies_are_no_copy() -> None:
    short = "a\nb\nc\n"  # three lines, too few characters to tell a copy from a pattern
    assert doubled(short, short + short, "tidy it") == ""
    block = "[mirror]\nurl = https://example.org/one\nretries = 3\n"
    assert doubled(block + block, block + block, "tidy it") == ""  # the file had it twice before
    assert doubled(block, block + block, "tidy it") != ""
    assert doubled(block, block + block, "Duplicate the mirror section") == ""
    # a new part modelled on one there shares its lines
    assert (
        doubled(block, block + block.replace("[mirror]", "[backup]"), "Add a backup section like mirror")
        == ""
    )
