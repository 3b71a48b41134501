"""Long-term memory: facts kept across sessions in one SQLite file per scope, searched by
keywords (FTS5, BM25) and, when an embedder is at hand, by vectors, fused by Reciprocal Rank Fusion."""
