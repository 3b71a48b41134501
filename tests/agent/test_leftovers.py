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


def test_a_method_renamed_of_its_class_is_looked_for_in_the_tests_names_too(tmp_path: Path) -> None:
    """The 1.5B renamed `add_song` everywhere but in `test_add_song_returns_the_position`, and the
    task ("Rename the method add_song of Playlist to enqueue ..., test names included") was read
    as no rename at all: the owner after the name hid it."""
    task = "Rename the method add_song of Playlist to enqueue everywhere, test names included."
    (tmp_path / "playlist.py").write_text("class Playlist:\n    def enqueue(self, title):\n        pass\n")
    (tmp_path / "test_playlist.py").write_text(
        "def test_add_songs_sorted():\n    pass\n\n\ndef test_enqueue_returns():\n    pass\n"
    )
    assert leftover_problem(task, tmp_path, []) == ""  # add_songs is another name
    (tmp_path / "test_playlist.py").write_text("def test_add_song_returns_the_position():\n    pass\n")
    assert "add_song is still in test_playlist.py (line 1)" in leftover_problem(task, tmp_path, [])
