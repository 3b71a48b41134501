"""`data_view` on each format, real files in a workspace, and malformed input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.data import DataViewInput, data_view


def view(ws: Path, path: str, **extra: object) -> str:
    return data_view(DataViewInput.model_validate({"path": path, **extra}), RunContext(paths=SafePaths(ws)))


def test_csv_and_tsv(workspace: Path) -> None:
    rows = "\n".join(f"{i},name {i},{i * 1.5},{'' if i % 3 else 'x'}" for i in range(100))
    (workspace / "t.csv").write_text("id,name,score,flag\n" + rows + "\n")
    out = view(workspace, "t.csv")
    assert out.startswith("100 rows x 4 columns (csv)")
    assert (
        "id: int" in out and "name: str" in out and "score: float" in out and "flag: str (with nulls)" in out
    )
    assert "0 | name 0 | 0.0 | x" in out and "name 5" not in out
    assert "name 9" in view(workspace, "t.csv", op="head", n=10)
    (workspace / "t.tsv").write_text("a\tb\n1\thello, world\n2\tx\n")
    out = view(workspace, "t.tsv")
    assert out.startswith("2 rows x 2 columns (tsv)") and "hello, world" in out
    (workspace / "semi.csv").write_text("a;b\n1;2\n3;4\n")
    assert view(workspace, "semi.csv").startswith("2 rows x 2 columns")


def test_json_and_json_lines(workspace: Path) -> None:
    records = [{"k": i, "v": f"s{i}", "o": None if i % 2 else 1.5} for i in range(7)]
    (workspace / "a.json").write_text(json.dumps(records))
    out = view(workspace, "a.json")
    assert out.startswith("7 rows x 3 columns (json)") and "o: float (with nulls)" in out
    (workspace / "wrapped.json").write_text(json.dumps({"items": records, "count": 7}))
    assert view(workspace, "wrapped.json").startswith("7 rows x 3 columns")
    (workspace / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records * 300))
    out = view(workspace, "a.jsonl")
    assert out.startswith("2100 rows x 3 columns (jsonl)") and "k: int" in out


def test_parquet(workspace: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table({"city": ["Oslo", "Lima", "Pune"], "temp": [3.5, 19.0, 31.2]})
    pq.write_table(table, workspace / "w.parquet")
    out = view(workspace, "w.parquet")
    assert out.startswith("3 rows x 2 columns") and "temp: double" in out and "Lima | 19.0" in out


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.csv", b"a,b\n1,2\n3,4,5\n", "Row 3 has 3 fields"),
        ("bin.csv", b"a,b\n\x00\x01\x02\n", "binary"),
        ("empty.csv", b"", "empty"),
        ("bad.json", b'[{"a": 1},', "Not valid JSON"),
        ("bad.jsonl", b'{"a": 1}\n{oops\n', "line 2"),
        ("scalar.json", b"42", "single value"),
        ("x.parquet", b"not parquet at all", "Parquet"),
        ("x.xlsx", b"PK", "reads .csv"),
    ],
)
def test_malformed_files_give_clear_errors(workspace: Path, name: str, content: bytes, message: str) -> None:
    (workspace / name).write_bytes(content)
    with pytest.raises(ToolError, match=message):
        view(workspace, name)


def test_stays_in_the_workspace(workspace: Path, tmp_path: Path) -> None:
    (tmp_path / "out.csv").write_text("a\n1\n")
    with pytest.raises(ToolError):
        view(workspace, "../out.csv")
    with pytest.raises(ToolError):
        view(workspace, str(tmp_path / "out.csv"))
    with pytest.raises(ToolError, match="Could not open"):
        view(workspace, "missing.csv")
