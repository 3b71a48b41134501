"""One SQLite file per scope holds the items, their FTS5 index and their vectors.

Search fuses the BM25 ranking and the cosine ranking by Reciprocal Rank Fusion
(score = sum of weight/(RRF_K + rank) over the rankings an item appears in). A keyword
match weighs the share of the query's words the item holds, and the cosine ranking holds
only items at least SEARCH_COSINE close: one incidental word in common (and a vector that
means something else) must not outrank the item that means what was asked. Without an
embedder, or when it fails or changes dimension, search is keyword-only and says so.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearth.core.errors import HearthError
from hearth.memory.embed import Embedder, EmbedError
from hearth.memory.secrets import SecretValues, holds_secret

RRF_K = 60
MAX_CHARS = 4000  # a longer item is cut, and the result says so
CANDIDATES = 50  # how deep each ranking goes before fusion
MIN_COSINE = 0.35  # all-MiniLM-L6-v2: unrelated sentences score about 0-0.2, paraphrases 0.5+
SEARCH_COSINE = 0.2  # below this a vector is unrelated: it takes no place in a search's ranking
KINDS = ("fact", "learning", "preference", "skill_candidate", "note", "chunk")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    id INTEGER PRIMARY KEY, text TEXT NOT NULL, kind TEXT NOT NULL, tags TEXT NOT NULL DEFAULT '',
    session TEXT NOT NULL DEFAULT '', created REAL NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS items_fts USING fts5(text, tags, content='items', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS items_ai AFTER INSERT ON items BEGIN
    INSERT INTO items_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags); END;
CREATE TRIGGER IF NOT EXISTS items_ad AFTER DELETE ON items BEGIN
    INSERT INTO items_fts(items_fts, rowid, text, tags) VALUES ('delete', old.id, old.text, old.tags); END;
CREATE TRIGGER IF NOT EXISTS items_au AFTER UPDATE ON items BEGIN
    INSERT INTO items_fts(items_fts, rowid, text, tags) VALUES ('delete', old.id, old.text, old.tags);
    INSERT INTO items_fts(rowid, text, tags) VALUES (new.id, new.text, new.tags); END;
CREATE TABLE IF NOT EXISTS vectors (
    item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
    model TEXT NOT NULL, dim INTEGER NOT NULL, vec BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class MemoryUnavailable(HearthError):
    pass


@dataclass
class Item:
    id: int
    text: str
    kind: str
    tags: list[str]
    session: str
    created: float
    score: float = 0.0
    scope: str = "project"

    @property
    def ref(self) -> str:
        """How the model and the web UI name it: `12` in the project scope, `u12` in the user's."""
        return f"u{self.id}" if self.scope == "user" else str(self.id)


@dataclass
class Stored:
    id: int | None
    notices: list[str] = field(default_factory=list)


@dataclass
class Found:
    items: list[Item]
    mode: str  # "hybrid" or "keyword"
    notices: list[str] = field(default_factory=list)


def rrf(
    rankings: list[list[int]], k: int = RRF_K, weights: list[dict[int, float] | None] | None = None
) -> list[tuple[int, float]]:
    """Fuse rankings (lists of ids, best first) into one, best first; ties keep first-seen order.
    `weights`, per ranking: each item's weight in it (1 when not given)."""
    scores: dict[int, float] = {}
    for n, ranking in enumerate(rankings):
        weight = weights[n] if weights is not None else None
        for rank, item_id in enumerate(ranking, start=1):
            w = 1.0 if weight is None else weight.get(item_id, 1.0)
            scores[item_id] = scores.get(item_id, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


# Words too common to say what a query is about; an OR over them would rank everything.
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "so",
        "that",
        "the",
        "this",
        "to",
        "use",
        "used",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)


def query_terms(text: str) -> list[str]:
    """The words of a free-text query that say what it is about, each once."""
    return list(dict.fromkeys(w for w in re.findall(r"\w+", text.lower()) if w not in _STOP))


def fts_query(text: str) -> str:
    """Words of a free-text query as an FTS5 OR of quoted terms (no operator the user did not mean)."""
    return " OR ".join(f'"{w}"' for w in query_terms(text))


class MemoryStore:
    def __init__(
        self, path: Path, embedder: Embedder | None = None, secrets: SecretValues | None = None
    ) -> None:
        self.path = path
        self.embedder = embedder
        self.secrets = secrets  # values known to be secret, refused like key-shaped strings
        self._embed_broken: str | None = None
        self._matrix: Any = None
        self._matrix_ids: list[int] = []
        self._matrix_gen = -1
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=2.0)
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(_SCHEMA)
            self.db.execute("SELECT count(*) FROM items").fetchone()
        except (sqlite3.DatabaseError, OSError) as e:
            raise MemoryUnavailable(
                f"The memory database {path} cannot be used: {e}.",
                "Move the file aside (Hearth makes a new one) or close what holds it locked; "
                "the session goes on without memory.",
            ) from e

    def close(self) -> None:
        self.db.close()

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return str(row[0]) if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.db:
            self.db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, value),
            )

    # --- writing -------------------------------------------------------------------------------
    def _gen(self) -> int:
        row = self.db.execute("SELECT value FROM meta WHERE key='gen'").fetchone()
        return int(row[0]) if row else 0

    def _bump(self) -> None:
        self.db.execute(
            "INSERT INTO meta(key, value) VALUES ('gen', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def store(
        self, text: str, kind: str = "fact", tags: list[str] | None = None, session: str = ""
    ) -> Stored:
        text = text.strip()
        if not text:
            return Stored(None, ["Nothing stored: the text is empty."])
        if holds_secret(text, self.secrets) or any(holds_secret(t, self.secrets) for t in tags or []):
            return Stored(
                None, ["Nothing stored: the text looks like it holds a secret (a key or password)."]
            )
        notices = []
        if len(text) > MAX_CHARS:
            notices.append(f"The text was cut to {MAX_CHARS} characters (it had {len(text)}).")
            text = text[:MAX_CHARS]
        kind = kind if kind in KINDS else "note"
        tag_text = " ".join(t.strip() for t in tags or [] if t.strip())
        with self.db:
            cur = self.db.execute(
                "INSERT INTO items(text, kind, tags, session, created) VALUES (?, ?, ?, ?, ?)",
                (text, kind, tag_text, session, time.time()),
            )
            item_id = int(cur.lastrowid or 0)
            self._bump()
        vec_notice = self._embed_items([(item_id, text)])
        if vec_notice:
            notices.append(vec_notice)
        return Stored(item_id, notices)

    def store_chunks(self, source: str, chunks: list[str], batch: int = 64) -> tuple[int, int]:
        """Replace the chunks of `source` (a file path, kept as the tag) by `chunks`; embedded in
        batches. Returns (stored, refused as secrets)."""
        with self.db:
            self.db.execute("DELETE FROM items WHERE kind='chunk' AND tags=?", (source,))
            self._bump()
        rows: list[tuple[int, str]] = []
        refused = 0
        with self.db:
            for text in chunks:
                text = text.strip()[:MAX_CHARS]
                if not text:
                    continue
                if holds_secret(text, self.secrets):
                    refused += 1
                    continue
                cur = self.db.execute(
                    "INSERT INTO items(text, kind, tags, session, created) VALUES (?, 'chunk', ?, '', ?)",
                    (text, source, time.time()),
                )
                rows.append((int(cur.lastrowid or 0), text))
            self._bump()
        for i in range(0, len(rows), batch):
            self._embed_items(rows[i : i + batch])
        return len(rows), refused

    def _embed_items(self, rows: list[tuple[int, str]]) -> str | None:
        if self.embedder is None or self._embed_broken or not rows:
            return self._embed_broken
        import numpy as np

        try:
            vecs = self.embedder.embed([t for _, t in rows])
        except EmbedError as e:
            self._embed_broken = f"The embedder failed ({e}); memory search is keyword-only."
            return self._embed_broken
        dims = {len(v) for v in vecs}
        known = self._dim()
        if len(dims) != 1 or (known is not None and known != next(iter(dims))):
            self._embed_broken = (
                f"The embedder returned dimension {sorted(dims)} where {known} was expected; "
                "memory search is keyword-only."
            )
            return self._embed_broken
        dim = next(iter(dims))
        with self.db:
            self.db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (f"dim:{self.embedder.name}", str(dim)),
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO vectors(item_id, model, dim, vec) VALUES (?, ?, ?, ?)",
                [
                    (i, self.embedder.name, dim, _unit(np.asarray(v, dtype=np.float32)).tobytes())
                    for (i, _), v in zip(rows, vecs, strict=True)
                ],
            )
            self._bump()
        return None

    def _dim(self) -> int | None:
        if self.embedder is None:
            return None
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (f"dim:{self.embedder.name}",)).fetchone()
        return int(row[0]) if row else None

    def reembed(self, batch: int = 64) -> int:
        """Embed every item that has no vector from the current embedder (after a model change)."""
        if self.embedder is None:
            return 0
        done, after = 0, 0
        while not self._embed_broken:
            # Onward from the last id seen: each batch starts where the previous one ended instead
            # of scanning again past every item already embedded (quadratic at 1M items).
            rows = self.db.execute(
                "SELECT i.id, i.text FROM items i LEFT JOIN vectors v ON v.item_id = i.id "
                "WHERE i.id > ? AND (v.item_id IS NULL OR v.model != ?) ORDER BY i.id LIMIT ?",
                (after, self.embedder.name, batch),
            ).fetchall()
            if not rows:
                break
            self._embed_items([(int(r[0]), str(r[1])) for r in rows])
            done += len(rows)
            after = int(rows[-1][0])
        return done

    def edit(self, item_id: int, text: str) -> Stored:
        """Replace an item's text (same checks as storing); its index entry and vector follow."""
        text = text.strip()
        if not text:
            return Stored(None, ["Not changed: the text is empty."])
        if holds_secret(text, self.secrets):
            return Stored(None, ["Not changed: the text looks like it holds a secret (a key or password)."])
        notices = []
        if len(text) > MAX_CHARS:
            notices.append(f"The text was cut to {MAX_CHARS} characters (it had {len(text)}).")
            text = text[:MAX_CHARS]
        with self.db:
            if not self.db.execute("UPDATE items SET text=? WHERE id=?", (text, item_id)).rowcount:
                return Stored(None, [f"No item {item_id}."])
            self.db.execute("DELETE FROM vectors WHERE item_id=?", (item_id,))
            self._bump()
        vec_notice = self._embed_items([(item_id, text)])
        return Stored(item_id, [*notices, *([vec_notice] if vec_notice else [])])

    def forget(self, item_id: int) -> bool:
        with self.db:
            n = self.db.execute("DELETE FROM items WHERE id=?", (item_id,)).rowcount
            self._bump()
        return n > 0

    # --- reading -------------------------------------------------------------------------------
    def get(self, item_id: int) -> Item | None:
        row = self.db.execute(
            "SELECT id, text, kind, tags, session, created FROM items WHERE id=?", (item_id,)
        ).fetchone()
        return _item(row) if row else None

    def items(self, limit: int = 50, kind: str | None = None) -> list[Item]:
        sql = "SELECT id, text, kind, tags, session, created FROM items"
        args: tuple[object, ...] = ()
        if kind:
            sql, args = sql + " WHERE kind=?", (kind,)
        rows = self.db.execute(sql + " ORDER BY id DESC LIMIT ?", (*args, limit)).fetchall()
        return [_item(r) for r in rows]

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM items").fetchone()[0])

    def keyword_ranking(self, query: str, n: int = CANDIDATES) -> list[int]:
        q = fts_query(query)
        if not q:
            return []
        rows = self.db.execute(
            "SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY bm25(items_fts) LIMIT ?", (q, n)
        ).fetchall()
        return [int(r[0]) for r in rows]

    def vector_ranking(self, query: str, n: int = CANDIDATES) -> list[int] | None:
        """Ids by cosine similarity to the query, or None when vectors cannot be used."""
        scored = self.vector_scores(query, n)
        return None if scored is None else [i for i, _ in scored]

    def vector_scores(self, query: str, n: int = CANDIDATES) -> list[tuple[int, float]] | None:
        """(id, cosine similarity) best first, or None when vectors cannot be used."""
        if self.embedder is None or self._embed_broken:
            return None
        import numpy as np

        try:
            qv = self.embedder.embed([query])[0]
        except EmbedError as e:
            self._embed_broken = f"The embedder failed ({e}); memory search is keyword-only."
            return None
        known = self._dim()
        if known is not None and len(qv) != known:
            self._embed_broken = (
                f"The embedder returned dimension {len(qv)} where {known} was expected; "
                "memory search is keyword-only."
            )
            return None
        self._load_matrix()
        if self._matrix is None or not self._matrix_ids:
            return []
        # einsum, not `@`: the matrix-vector product through OpenBLAS's threads took 8 ms at 10k
        # items on this shared 2-core machine (a thread waits for a busy core) against 0.6 ms here
        # (bench/memory.py measures both).
        scores = np.einsum("ij,j->i", self._matrix, _unit(np.asarray(qv, dtype=np.float32)))
        n = min(n, len(scores))
        top = np.argpartition(scores, len(scores) - n)[len(scores) - n :]  # no negated copy of all
        top = top[np.argsort(-scores[top])]
        return [(self._matrix_ids[i], float(scores[i])) for i in top]

    def _load_matrix(self) -> None:
        gen = self._gen()
        if gen == self._matrix_gen or self.embedder is None:
            return
        import numpy as np

        model = self.embedder.name
        count, dim = self.db.execute(
            "SELECT count(*), max(dim) FROM vectors WHERE model=?", (model,)
        ).fetchone()
        # Filled in place, a batch of rows at a time: at 1M items the rows and a joined copy of
        # their bytes would hold the 1.5 GB of vectors twice more while loading.
        matrix = np.empty((count, dim or 0), dtype=np.float32)
        ids = np.empty(count, dtype=np.int64)
        cur = self.db.execute("SELECT item_id, vec FROM vectors WHERE model=? ORDER BY item_id", (model,))
        filled = 0
        while filled < count and (rows := cur.fetchmany(8192)):
            rows = rows[: count - filled]  # rows stored since the count are left for the next load
            end = filled + len(rows)
            ids[filled:end] = [r[0] for r in rows]
            matrix[filled:end] = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(
                len(rows), -1
            )
            filled = end
        self._matrix_ids = ids[:filled].tolist()
        self._matrix = matrix[:filled] if filled else None
        self._matrix_gen = gen

    def coverage(self, query: str, ids: list[int]) -> dict[int, float]:
        """Per item, the share of the query's words it holds (in its text or tags)."""
        terms = set(query_terms(query))
        if not terms or not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.db.execute(f"SELECT id, text, tags FROM items WHERE id IN ({marks})", ids).fetchall()
        return {
            int(i): len(terms & set(re.findall(r"\w+", f"{text} {tags}".lower()))) / len(terms)
            for i, text, tags in rows
        }

    def _fused(self, query: str, min_cosine: float) -> tuple[list[tuple[int, float]], bool]:
        """The fused ranking, and whether vectors took part in it."""
        keyword = self.keyword_ranking(query)
        scored = self.vector_scores(query)
        if scored is None:
            return rrf([keyword]), False
        close = [i for i, score in scored if score >= min_cosine]
        return rrf([keyword, close], weights=[self.coverage(query, keyword), None]), True

    def search(self, query: str, k: int = 5) -> Found:
        k = max(1, min(k, 50))
        fused, hybrid = self._fused(query, SEARCH_COSINE)
        notices = []
        if not hybrid:
            notices.append(self._embed_broken or "No embedder is configured: memory search is keyword-only.")
        items = []
        for item_id, score in fused[:k]:
            item = self.get(item_id)
            if item:
                item.score = score
                items.append(item)
        return Found(items, "hybrid" if hybrid else "keyword", notices)

    def relevant(self, query: str, k: int = 5, min_cosine: float = MIN_COSINE) -> list[Item]:
        """Items worth offering unasked: a keyword match, or a vector at least `min_cosine` close;
        fused like `search`, best first."""
        fused, _ = self._fused(query, min_cosine)
        items = []
        for item_id, score in fused[:k]:
            item = self.get(item_id)
            if item:
                item.score = score
                items.append(item)
        return items


def _unit(v: Any) -> Any:
    norm = float((v @ v) ** 0.5)
    return v / norm if norm else v


def _item(row: tuple[Any, ...]) -> Item:
    return Item(int(row[0]), str(row[1]), str(row[2]), str(row[3]).split(), str(row[4]), float(row[5]))


def fuse(found: dict[str, Found], k: int) -> Found:
    """One ranking from several stores' (`found`, by scope): each item marked with its scope,
    the first `k` by reciprocal rank fusion; hybrid only when every store searched hybrid."""
    by_ref: dict[str, Item] = {}
    rankings: list[list[str]] = []
    for scope, res in found.items():
        for item in res.items:
            item.scope = scope
            by_ref[item.ref] = item
        rankings.append([it.ref for it in res.items])
    refs = [r for r, _ in rrf_refs(rankings)][:k]
    modes = {r.mode for r in found.values()}
    notices = list(dict.fromkeys(n for r in found.values() for n in r.notices))
    return Found([by_ref[r] for r in refs], "hybrid" if modes == {"hybrid"} else "keyword", notices)


def rrf_refs(rankings: list[list[str]]) -> list[tuple[str, float]]:
    index = {ref: i for i, ref in enumerate(dict.fromkeys(r for ranking in rankings for r in ranking))}
    names = list(index)
    fused = rrf([[index[r] for r in ranking] for ranking in rankings])
    return [(names[i], score) for i, score in fused]
