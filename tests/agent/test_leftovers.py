"""The finish review's look for a renamed name left behind reads only the workspace's own files."""

from __future__ import annotations

from pathlib import Path

from hearth.agent.leftovers import leftover_problem

TASK = "Rename the constant MAX_TRIES to TRY_LIMIT everywhere."


def test_a_name_left_in_a_file_is_found_and_a_symlink_out_of_the_workspace_is_not_read(
    tmp_path: Path,
) -> None:
    ws, outside = tmp_path / "ws", tmp_path / "outside.py"
    ws.mkdir()
    outside.write_text("MAX_TRIES = 3\n")
    (ws / "settings.py").write_text("TRY_LIMIT = 3\n")
    (ws / "link.py").symlink_to(outside)
    assert leftover_problem(TASK, ws, []) == ""
    (ws / "app.py").write_text("from settings import MAX_TRIES\n")
    assert "MAX_TRIES is still in app.py (line 1)" in leftover_problem(TASK, ws, [])
