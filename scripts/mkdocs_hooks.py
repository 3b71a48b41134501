"""mkdocs hooks: publish bench/RESULTS.md as the page benchmarks/results.md.

The benchmark numbers live beside the benchmarks that produce them; the site shows that file
as it is rather than a copy that could drift.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

RESULTS = Path(__file__).resolve().parents[1] / "bench" / "RESULTS.md"


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "benchmarks/results.md", abs_src_path=str(RESULTS)))
    return files
