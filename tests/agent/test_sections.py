"""A config file's sections a write left out that the task never named (agent/sections)."""

from __future__ import annotations

from hearth.agent.sections import dropped, read_text, sections

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
