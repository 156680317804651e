"""``TypedLines`` over a real pipe: every whole line is handed out as soon as it is whole, also
when several arrive in one write, and a character split across writes is never spoilt."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battle.cli.typed_lines import NOTHING_YET, TypedLines, typed_input


@contextmanager
def pipe() -> Iterator[tuple[TypedLines, int]]:
    """A reader on a real pipe's reading end, and the writing end's descriptor."""
    reading, writing = os.pipe()
    stream = os.fdopen(reading, "r", encoding="utf-8")
    try:
        yield TypedLines(stream), writing
    finally:
        stream.close()
        with suppress(OSError):
            os.close(writing)


def test_lines_written_together_are_all_read_without_more_input() -> None:
    with pipe() as (lines, writing):
        os.write(writing, b"abort\nquit\n")
        assert lines.next(5) == "abort\n"
        assert lines.next(0) == "quit\n"  # already here: no wait, no further input
        assert lines.next(0) is NOTHING_YET


def test_a_line_is_handed_out_only_when_whole_and_the_rest_at_the_end() -> None:
    with pipe() as (lines, writing):
        os.write(writing, b"c1-")
        assert lines.next(0.05) is NOTHING_YET
        os.write(writing, b"c9\nres")
        assert lines.next(5) == "c1-c9\n"
        os.close(writing)
        assert lines.next(5) == "res"
        assert lines.next(5) is None
        assert lines.next(0) is None


def test_no_stream_and_a_stream_without_a_descriptor() -> None:
    assert TypedLines(None).next(0) is None
    lines = TypedLines(io.StringIO("ja\nnein\n"))
    assert [lines.next(0), lines.next(0), lines.next(0)] == ["ja\n", "nein\n", None]


def test_typed_input_from_a_pipe_is_inputs_lines_prompt_and_end(monkeypatch: pytest.MonkeyPatch) -> None:
    reading, writing = os.pipe()
    os.write(writing, b"c1-c9\nquit")
    os.close(writing)
    shown = io.StringIO()
    with os.fdopen(reading, "r", encoding="utf-8") as stream:
        monkeypatch.setattr("sys.stdin", stream)
        monkeypatch.setattr("sys.stdout", shown)
        assert typed_input("You to move> ") == "c1-c9"
        assert typed_input("> ") == "quit"  # the unfinished last line, as input() gives it
        with pytest.raises(EOFError):
            typed_input("> ")
    assert shown.getvalue() == "You to move> > > "


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(st.characters(codec="utf-8", exclude_characters="\r"), max_size=8), max_size=6),
    st.lists(st.integers(1, 7), min_size=1, max_size=20),
)
def test_any_split_of_the_bytes_gives_back_the_lines_typed(typed: list[str], cuts: list[int]) -> None:
    data = "".join(line + "\n" for line in typed).encode()
    with pipe() as (lines, writing):
        at, got, step = 0, [], 0
        while at < len(data):
            size = cuts[step % len(cuts)]
            os.write(writing, data[at : at + size])
            at, step = at + size, step + 1
            while (line := lines.next(0)) is not NOTHING_YET:
                got.append(line)
        os.close(writing)
        while (line := lines.next(5)) is not None:
            assert line is not NOTHING_YET
            got.append(line)
    assert "".join(got) == "".join(line + "\n" for line in typed)
    assert all(line.endswith("\n") for line in got)
