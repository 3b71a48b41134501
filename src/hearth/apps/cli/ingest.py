"""Ingest a repository into searchable chunks, in the project's memory index (kind `chunk`, the
file's path as its tag), so memory_search finds code and documents by keywords and vectors.

Read in Hearth's process, like the file tools read: never a file the file tools treat as secret
(by name, by folder, or as a hardlink to one), never `.git/`, `.hearth/` or dependency folders,
no symlink followed, no binary file; a chunk holding a secret value is refused like any memory."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.memory.embed import Embedder
from hearth.memory.minilm import embedded_embedder
from hearth.runtime.memory_scopes import open_memory
from hearth.sandbox.paths import SafePaths

SKIPPED_DIRS = frozenset({".git", ".hearth", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache"})
MAX_FILE_BYTES = 1_000_000
CHUNK_LINES = 40
OVERLAP = 5


@dataclass
class Ingested:
    files: int = 0
    chunks: int = 0
    refused: int = 0  # chunks that held a secret value
    skipped: int = 0  # secret, binary or too large files


def chunk_text(rel: str, text: str, lines: int = CHUNK_LINES, overlap: int = OVERLAP) -> list[str]:
    """Overlapping runs of lines, each headed by `path:first-last` so a hit says where it is."""
    all_lines = text.splitlines()
    out = []
    step = max(1, lines - overlap)
    for start in range(0, max(1, len(all_lines)), step):
        part = all_lines[start : start + lines]
        if not any(p.strip() for p in part):
            continue
        out.append(f"{rel}:{start + 1}-{start + len(part)}\n" + "\n".join(part))
        if start + lines >= len(all_lines):
            break
    return out


def ingest(workspace: Path, path: str = ".", embedder: Embedder | None = None) -> Ingested:
    """Chunk every text file under `path` (relative to the workspace) into project memory,
    embedded by `embedder` (default: the embedded model, when installed)."""
    paths = SafePaths(workspace)
    top = paths.resolve(path)
    if not top.exists():
        raise HearthError(f"{path} does not exist in the workspace.", "Give a folder or file inside it.")
    files = [top] if top.is_file() else list(_walk(top))
    mem = open_memory("project", workspace, embedder or embedded_embedder())
    done = Ingested()
    try:
        for file in files:
            if paths.is_secret(file) or file.is_symlink():
                done.skipped += 1
                continue
            try:
                data = file.read_bytes() if file.stat().st_size <= MAX_FILE_BYTES else b""
            except OSError:
                data = b""
            if not data or b"\0" in data[:8192]:
                done.skipped += 1
                continue
            rel = str(file.relative_to(paths.root))
            stored, refused = mem.store_chunks(rel, chunk_text(rel, data.decode("utf-8", errors="replace")))
            done.files += 1
            done.chunks += stored
            done.refused += refused
    finally:
        mem.close()
    return done


def _walk(top: Path) -> list[Path]:
    out: list[Path] = []
    for folder, dirs, names in os.walk(top):  # follows no symlinked folder
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        out.extend(Path(folder) / n for n in sorted(names))
    return out
