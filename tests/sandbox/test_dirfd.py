"""Walking folders by descriptor without following a symlink (sandbox/dirfd): a deep tree is
opened step by step once, never through a link, and with few files open at any time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hearth.sandbox.dirfd import Chain, list_dir, remove_tree


def open_files(under: Path) -> int:
    """Descriptors this process holds on `under` or anything in it (a count of all of them would
    move with other threads of the test worker opening and closing their own files)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target == str(under) or target.startswith(f"{under}/"):
            count += 1
    return count


def deep(root: Path, depth: int) -> None:
    """`root`/a/a/.../a/f, `depth` folders deep: made step by step from descriptors, since the
    whole path is longer than the system takes in one call."""
    root.mkdir(exist_ok=True)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("a", dir_fd=fd)
        sub = os.open("a", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = sub
    os.close(os.open("f", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    os.close(fd)


def test_a_folder_deeper_than_the_open_file_limit_is_removed_with_few_files_open(tmp_path: Path) -> None:
    deep(tmp_path / "top", 1500)  # deeper than the usual limit of 1,024 open files
    (tmp_path / "top" / "a" / "side").mkdir()
    (tmp_path / "keep").write_text("mine")
    root = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    before = open_files(tmp_path)
    try:
        remove_tree(root, "top")
    finally:
        os.close(root)
    assert not (tmp_path / "top").exists()
    assert (tmp_path / "keep").read_text() == "mine"
    assert open_files(tmp_path) == before - 1  # every descriptor it opened is closed


def test_the_chain_keeps_few_descriptors_and_reopens_a_path_elsewhere(tmp_path: Path) -> None:
    deep(tmp_path, 200)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "in_b").write_text("")
    root = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    chain = Chain(root)
    start = open_files(tmp_path)
    try:
        path = ""
        for _ in range(200):
            path = f"{path}/a" if path else "a"
            fd = chain.open(path)
        assert "f" in list_dir(fd)
        assert open_files(tmp_path) - start <= 200 // Chain.EVERY + 2
        assert list_dir(chain.open("b")) == {"in_b": "file"}  # a path elsewhere
        assert list_dir(chain.open("a/a")) == {"a": "dir"}  # back up the first one
        assert list_dir(chain.open("")) == list_dir(root)
    finally:
        chain.close()
        os.close(root)
    assert open_files(tmp_path) == start - 1


def test_a_symlink_on_the_path_is_never_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("no")
    ws = tmp_path / "ws"
    deep(ws, 40)
    link_parent = ws.joinpath(*["a"] * 39)
    os.rename(link_parent / "a", ws / "moved")
    (link_parent / "a").symlink_to(outside)
    root = os.open(ws, os.O_RDONLY | os.O_DIRECTORY)
    chain = Chain(root)
    try:
        chain.open("/".join(["a"] * 39))
        with pytest.raises(OSError):
            chain.open("/".join(["a"] * 40))
        remove_tree(root, "a")
    finally:
        chain.close()
        os.close(root)
    assert (outside / "secret").read_text() == "no"  # the link was removed, not what it points at
    assert not (ws / "a").exists()
