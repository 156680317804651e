"""The online terminal in one language, whole: hosting and its codes, a move each way, a takeback
asked and turned down, a refusal, a resignation and a rematch offer, read from a real
``play --online`` process against a real ``serve`` under German and English (``language_guard``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.i18n.language_guard import Screen, report
from tests.online.test_online_terminal import Program, serve
from tests.online_server import Client, a_legal_move

CODE = re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{4}(?:-[0-9A-Z]{24})?\b")
"""An invite or watch code (and a link's secret): letters at random, the same in every language."""
COMMAND_WORDS = frozenset(
    {"play", "moves", "board", "takeback", "yes", "no", "rematch", "resign", "abort", "codes", "save", "quit", "help"}
)
"""The online terminal's commands, which its help and its questions name as they are typed."""


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_online_terminal_is_in_one_language(language: str, tmp_path: Path) -> None:
    url, programs = serve(tmp_path)
    bob = None
    try:
        ann = Program(
            ["play", "--online", url, "--deal", "5", "--first", "--player1", "Ann", "--move-seconds", "600"],
            tmp_path / "ann",
            language,
        )
        programs.append(ann)
        code = ann.wait_for(r"--join (\w{4}-\w{4})").group(1)
        bob = Client(url, "Bob")
        bob.send({"type": "join", "code": code, "name": "Bob"})
        bob.expect("joined")
        state = bob.expect("state")
        ann.wait_for(r"Bob")
        # one line at a time, each once the last is answered: the terminal reads what select() says is there
        mark = ann.mark()
        ann.type("help")
        ann.wait_for(r"\n  help ", after=mark)
        mark = ann.mark()
        ann.type("codes")
        ann.wait_for(r"\(\w+: http", after=mark)
        mark = ann.mark()
        ann.type("moves")
        move = ann.wait_for(r"\n  (\w\d-\w\d) \(\d+\)", after=mark).group(1)
        ann.type(move)
        bob.expect("moved")
        state["moves"].append(move)
        reply = a_legal_move(state)
        bob.send({"type": "move", "move": reply, "id": "b1"})
        ann.wait_for(f"Bob .* {reply}")
        bob.send({"type": "takeback_request"})
        ann.wait_for("Bob .*: yes .* no")
        for line in ("no", "rematch", "a1-a1", "abort"):
            mark = ann.mark()  # refused or worded: the game is not over, a1-a1 is no move, it is too late to abort
            ann.type(line)
            ann.wait_for(r"[.?]\n", after=mark)
        bob.send({"type": "resign"})
        ann.wait_for(r"\d+-\d+\.")
        bob.send({"type": "rematch_offer"})
        ann.wait_for("Bob .*: yes .* no")
        ann.type("quit")
        ann.process.wait(20)
        text = ann.text
    finally:
        if bob is not None:
            bob.close()
        for program in programs:
            program.stop()
    screen = Screen("online terminal", CODE.sub(" ", text), ("Ann", "Bob"), COMMAND_WORDS)
    assert report([screen], language) == "", text[-3000:]
