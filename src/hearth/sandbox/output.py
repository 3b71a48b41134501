"""A process's output, kept small (head and tail) and made safe (see hearth.core.text)."""

from __future__ import annotations

from hearth.core.text import strip_control


def looks_binary(data: bytes) -> bool:
    if b"\x00" in data:
        return True
    if not data:
        return False
    text = data.decode("utf-8", errors="replace")
    return text.count("\ufffd") > max(8, len(text) // 20)


class OutputCapture:
    """Collects a process's output keeping only the head and the tail in memory."""

    def __init__(self, head: int = 24_000, tail: int = 12_000) -> None:
        self._head_limit, self._tail_limit = head, tail
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self._head_limit - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > self._tail_limit:
                del self.tail[: len(self.tail) - self._tail_limit]

    def text(self) -> str:
        head, tail = bytes(self.head), bytes(self.tail)
        if looks_binary(head) or looks_binary(tail):
            return f"<binary output, {self.total} bytes, not shown>"
        cut = self.total - len(head) - len(tail)
        body = head.decode("utf-8", errors="replace")
        if tail:
            middle = f"\n[… {cut} bytes cut …]\n" if cut > 0 else ""
            body += middle + tail.decode("utf-8", errors="replace")
        return strip_control(body)
