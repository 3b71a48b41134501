from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hearth.llm.thinking import ThinkSplitter, split_thinking


def test_think_block_is_separated() -> None:
    assert split_thinking("<think>plan it</think>The answer.") == ("The answer.", "plan it")


def test_unclosed_think_keeps_everything_after_as_thinking() -> None:
    assert split_thinking("<think>still going and going") == ("", "still going and going")


def test_stray_closing_tag_without_opener() -> None:
    # Some chat templates open <think> in the prompt, so the reply starts inside it.
    assert split_thinking("reasoning here</think>Done.") == ("Done.", "reasoning here")


def _stream(pieces: list[str]) -> tuple[str, str]:
    s = ThinkSplitter()
    out: dict[str, str] = {"text": "", "thinking": ""}
    for p in pieces:
        for kind, piece in s.feed(p):
            out[kind] += piece
    for kind, piece in s.flush():
        out[kind] += piece
    return out["text"], out["thinking"]


@given(
    st.lists(
        st.sampled_from(["a", "b", " ", "<think>", "</think>", "<", ">", "/", "think", "t"]), max_size=40
    ),
    st.integers(min_value=1, max_value=7),
)
def test_streaming_split_matches_whole_split_for_any_chunking(tokens: list[str], size: int) -> None:
    whole = "".join(tokens)
    pieces = [whole[i : i + size] for i in range(0, len(whole), size)]
    expected = ThinkSplitter()
    list(expected.feed(whole))
    list(expected.flush())
    assert _stream(pieces) == (expected.text, expected.thinking)


def test_streaming_emits_text_before_the_reply_ends() -> None:
    s = ThinkSplitter()
    assert list(s.feed("Hello wor")) == [("text", "Hello wor")]
    assert list(s.feed("ld <thi")) == [("text", "ld ")]  # "<thi" might be a tag: held back
    assert list(s.feed("nk>hmm</think>ok")) == [("thinking", "hmm"), ("text", "ok")]
