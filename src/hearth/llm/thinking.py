"""Separate `<think>...</think>` blocks from a reply, also while it streams.

Thinking is shown to the user and never sent back to the model. A block that
never closes keeps everything after its opening tag as thinking.
"""

from __future__ import annotations

from collections.abc import Iterator

OPEN_TAGS = ("<think>", "<thinking>")
CLOSE_FOR = {"<think>": "</think>", "<thinking>": "</thinking>"}


class ThinkSplitter:
    """Feed text chunks; get ("text" | "thinking", piece) pairs back.

    Holds back only as many characters as could be the start of a tag, so
    streaming stays live.
    """

    def __init__(self) -> None:
        self._buf = ""
        self._close: str | None = None  # the closing tag we are waiting for
        self.text = ""
        self.thinking = ""

    def feed(self, chunk: str) -> Iterator[tuple[str, str]]:
        self._buf += chunk
        while self._buf:
            if self._close is None:
                idx, tag = _find_first(self._buf, OPEN_TAGS)
                if tag is not None:
                    yield from self._emit("text", self._buf[:idx])
                    self._buf = self._buf[idx + len(tag) :]
                    self._close = CLOSE_FOR[tag]
                    continue
                keep = _partial_suffix(self._buf, OPEN_TAGS)
            else:
                idx = self._buf.find(self._close)
                if idx >= 0:
                    yield from self._emit("thinking", self._buf[:idx])
                    self._buf = self._buf[idx + len(self._close) :]
                    self._close = None
                    continue
                keep = _partial_suffix(self._buf, (self._close,))
            out, self._buf = self._buf[: len(self._buf) - keep], self._buf[len(self._buf) - keep :]
            yield from self._emit("text" if self._close is None else "thinking", out)
            return

    def flush(self) -> Iterator[tuple[str, str]]:
        rest, self._buf = self._buf, ""
        yield from self._emit("text" if self._close is None else "thinking", rest)

    @property
    def unclosed(self) -> bool:
        return self._close is not None

    def _emit(self, kind: str, piece: str) -> Iterator[tuple[str, str]]:
        if not piece:
            return
        if kind == "text":
            self.text += piece
        else:
            self.thinking += piece
        yield kind, piece


def split_thinking(content: str) -> tuple[str, str]:
    """(visible text, thinking) of a complete reply."""
    s = ThinkSplitter()
    list(s.feed(content))
    list(s.flush())
    # A stray closing tag with no opener (some templates put <think> in the prompt).
    text = s.text
    for close in CLOSE_FOR.values():
        if close in text:
            before, _, after = text.partition(close)
            return after.strip(), (s.thinking + before).strip()
    return text.strip(), s.thinking.strip()


def _find_first(buf: str, tags: tuple[str, ...]) -> tuple[int, str | None]:
    best, best_tag = -1, None
    for tag in tags:
        i = buf.find(tag)
        if i >= 0 and (best < 0 or i < best):
            best, best_tag = i, tag
    return best, best_tag


def _partial_suffix(buf: str, tags: tuple[str, ...]) -> int:
    """Length of the longest suffix of buf that is a proper prefix of a tag."""
    longest = 0
    for tag in tags:
        for n in range(min(len(tag) - 1, len(buf)), 0, -1):
            if buf.endswith(tag[:n]):
                longest = max(longest, n)
                break
    return longest
