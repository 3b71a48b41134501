"""What of a streamed reply a person sees in the terminal.

Two things in a reply are for Hearth, not for the reader: the finish marker (TASK_COMPLETE: the
end of the turn shows as its own line) and, in text tool mode, a tool call written as fenced JSON
or a <tool_call> block (the view shows each call once, as `→ name(args)`). Both can arrive split
over several chunks, so the filter holds back a tail that may be the start of one until the next
chunk says what it is.
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"\bTASK[ _-]COMPLETED?\b")
_MARKER_SPELLINGS = ("TASK_COMPLETED", "TASK-COMPLETED", "TASK COMPLETED")
_BLOCKS = {"```": "```", "<tool_call>": "</tool_call>"}
# A fenced block is a call when it holds one JSON object naming a tool (as the text-call parser reads them).
_CALL_BODY = re.compile(r'^\s*(?:\[\s*)?\{\s*"(?:name|tool|tool_name|function)"\s*:')


def _is_call(block: str) -> bool:
    if block.startswith("<tool_call>"):
        return True
    body = block[3:-3]
    first, _, rest = body.partition("\n")
    if first.strip() and not first.strip().startswith("{"):  # an info string: ```json
        body = rest
    return bool(_CALL_BODY.match(body))


def _partial_tail(text: str) -> int:
    """How many characters at the end of `text` may begin a block or a marker still arriving."""
    longest = 0
    for whole in (*_BLOCKS, *_MARKER_SPELLINGS):
        for size in range(min(len(whole), len(text)), 0, -1):
            if text.endswith(whole[:size]):
                longest = max(longest, size)
                break
    return longest


class ShownText:
    """Feed it the chunks of one reply's text; it returns what to print of each."""

    def __init__(self) -> None:
        self._held = ""

    def feed(self, text: str) -> str:
        return self._release(self._held + text, final=False)

    def flush(self) -> str:
        """The end of the reply: whatever is still held (an unclosed fence is shown as written)."""
        return self._release(self._held, final=True)

    def _release(self, text: str, final: bool) -> str:
        out: list[str] = []
        self._held = ""
        while True:
            found = [(text.find(opener), opener) for opener in _BLOCKS if opener in text]
            if not found:
                break
            start, opener = min(found)
            end = text.find(_BLOCKS[opener], start + len(opener))
            if end < 0:
                if final:
                    break
                out.append(text[:start])
                self._held = text[start:]
                return _MARKER.sub("", "".join(out))
            end += len(_BLOCKS[opener])
            block = text[start:end]
            out.append(text[:start])
            if not _is_call(block):
                out.append(block)
            text = text[end:]
        keep = 0 if final else _partial_tail(text)
        if keep:
            self._held, text = text[-keep:], text[:-keep]
        out.append(text)
        return _MARKER.sub("", "".join(out))


def shown(text: str) -> str:
    """A whole reply as a person sees it."""
    view = ShownText()
    return (view.feed(text) + view.flush()).strip()
