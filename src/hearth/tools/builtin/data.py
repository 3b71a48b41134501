"""`data_view`: shape, columns, types and first rows of a CSV, TSV, JSON, JSON Lines or Parquet file.

CSV, TSV and JSON are read with the standard library (streamed, so a big file
costs time, not memory, except whole-document JSON, which is capped); Parquet
needs pyarrow (`pip install 'hearth[data]'`). Files are opened through the
workspace's safe paths, like the file tools.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO, Literal

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput

MAX_JSON_BYTES = 50 << 20
TYPE_SAMPLE = 1000
CELL = 40
Row = dict[str, Any]


class DataViewInput(ToolInput):
    """Shape, columns and types (op=info) or first rows (op=head) of a CSV/TSV/JSON/JSONL/Parquet file."""

    path: str
    op: Literal["info", "head"] = "info"
    n: int = Field(5, ge=1, le=200, description="Rows to show")


def _kind(path: Path) -> str:
    suffix = path.suffix.lower()
    kinds = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json", ".jsonl": "jsonl"}
    kinds |= {".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}
    if suffix not in kinds:
        raise ToolError(
            f"data_view reads .csv, .tsv, .json, .jsonl and .parquet files, not {suffix or path.name!r}."
        )
    return kinds[suffix]


def _csv_rows(raw: BinaryIO, delimiter: str | None) -> tuple[list[str], Iterator[Row]]:
    text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace", newline="")
    sample = text.read(64 << 10)
    if "\x00" in sample:
        raise ToolError("The file holds binary data (NUL bytes), not text.")
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(sample, delimiters=",;|\t").delimiter
        except csv.Error:
            delimiter = ","
    rest = _chain(sample, text)
    reader = csv.reader(rest, delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise ToolError("The file is empty.") from None
    columns = [h.strip() or f"column_{i + 1}" for i, h in enumerate(header)]

    def rows() -> Iterator[Row]:
        for values in reader:
            if not values:
                continue
            if len(values) != len(columns):
                raise ToolError(
                    f"Row {reader.line_num} has {len(values)} fields but the header has {len(columns)}; "
                    "the file is not well-formed CSV (check the delimiter and quoting)."
                )
            yield dict(zip(columns, (_cell(v) for v in values), strict=True))

    return columns, rows()


def _chain(first: str, rest: io.TextIOWrapper) -> Iterator[str]:
    buffer = io.StringIO(first + rest.readline())  # finish the sample's last line
    yield from buffer
    yield from rest


def _cell(value: str) -> Any:
    text = value.strip()
    if text == "":
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return value


def _json_rows(raw: BinaryIO, lines: bool) -> tuple[list[str], Iterator[Row]]:
    if lines:

        def rows() -> Iterator[Row]:
            for number, line in enumerate(raw, 1):
                if line.strip():
                    yield _record(_loads(line, f"line {number}"))

        first = list(islice(rows(), TYPE_SAMPLE))  # the columns are those of the first records
        return _columns(first), _concat(first, raw, len(first))
    data = raw.read(MAX_JSON_BYTES + 1)
    if len(data) > MAX_JSON_BYTES:
        raise ToolError(
            f"The JSON file is over {MAX_JSON_BYTES >> 20} MB; use JSON Lines or the python tool."
        )
    doc = _loads(data, "the file")
    if isinstance(doc, dict):
        tables = [v for v in doc.values() if isinstance(v, list)]
        doc = tables[0] if len(tables) == 1 else [doc]
    if not isinstance(doc, list):
        raise ToolError("The JSON is a single value, not a list of records.")
    records = [_record(item) for item in doc]
    return _columns(records[:TYPE_SAMPLE]), iter(records)


def _concat(first: list[Row], raw: BinaryIO, skip: int) -> Iterator[Row]:
    yield from first
    raw.seek(0)
    seen = 0
    for number, line in enumerate(raw, 1):
        if line.strip():
            seen += 1
            if seen > skip:
                yield _record(_loads(line, f"line {number}"))


def _loads(data: bytes, where: str) -> Any:
    try:
        return json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ToolError(f"Not valid JSON at {where}: {exc}.") from None


def _record(item: Any) -> Row:
    return item if isinstance(item, dict) else {"value": item}


def _columns(records: Iterable[Row]) -> list[str]:
    seen: dict[str, None] = {}
    for record in records:
        seen.update(dict.fromkeys(record))
    return list(seen)


def _type_name(values: list[Any]) -> str:
    names = {type(v).__name__ for v in values if v is not None}
    if names <= {"int", "float"} and "float" in names:
        names = {"float"}
    nulls = " (with nulls)" if any(v is None for v in values) else ""
    return ("|".join(sorted(names)) or "null") + nulls


def _parquet(raw: BinaryIO, op: str, n: int) -> str:
    try:
        import pyarrow.parquet as pq  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise ToolError("Reading Parquet needs pyarrow (pip install 'hearth[data]').") from None
    try:
        table = pq.ParquetFile(raw)
        meta = table.metadata
        schema = table.schema_arrow
        head = table.read_row_group(0).slice(0, n).to_pylist() if meta.num_row_groups else []
    except Exception as exc:
        raise ToolError(f"Not a readable Parquet file: {exc}.") from None
    columns = [f.name for f in schema]
    lines = [f"{meta.num_rows} rows x {len(columns)} columns"]
    if op == "info":
        lines += [f"  {f.name}: {f.type}" for f in schema]
    return "\n".join([*lines, "", _table(columns, head)])


def _table(columns: list[str], rows: list[Row]) -> str:
    def show(value: Any) -> str:
        text = "" if value is None else str(value).replace("\n", " ")
        return text if len(text) <= CELL else text[: CELL - 1] + "…"

    lines = [" | ".join(columns), " | ".join("---" for _ in columns)]
    lines += [" | ".join(show(row.get(c)) for c in columns) for row in rows]
    return "\n".join(lines) if rows else "(no rows)"


def data_view(args: DataViewInput, ctx: RunContext) -> str:
    path = ctx.paths.resolve(args.path)
    kind = _kind(path)
    try:
        raw = os.fdopen(ctx.paths.open(path, os.O_RDONLY), "rb")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
        raise ToolError(f"Could not open {args.path}: {exc.strerror}.") from None
    with raw:
        if kind == "parquet":
            return _parquet(raw, args.op, args.n)
        if kind in ("csv", "tsv"):
            columns, rows = _csv_rows(raw, "\t" if kind == "tsv" else None)
        else:
            columns, rows = _json_rows(raw, kind == "jsonl")
        head: list[Row] = []
        sample: list[Row] = []
        count = 0
        for row in rows:
            count += 1
            if len(head) < args.n:
                head.append(row)
            if len(sample) < TYPE_SAMPLE:
                sample.append(row)
    lines = [f"{count} rows x {len(columns)} columns ({kind})"]
    if args.op == "info":
        lines += [f"  {c}: {_type_name([r.get(c) for r in sample])}" for c in columns]
    return "\n".join([*lines, "", _table(columns, head)])


def data_tools() -> list[Tool]:
    return [Tool("data_view", DataViewInput, data_view, read_only=True)]
