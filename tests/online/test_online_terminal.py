"""``mahjong-battle serve`` and ``play --online`` as a user runs them: three real processes over
127.0.0.1, lines typed into real pipes, the output read as it comes."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from battle.history.store import History
from battle.rules.game import Game
from tests.online_server import Client, ServerProcess, a_legal_move, free_port

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-c", "from battle.cli import entry_point; entry_point()"]


def environment(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("XDG_")}
    env.update(
        XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"), PYTHONPATH=str(ROOT), NO_COLOR="1"
    )
    return env


class Program:
    """A running command: lines in, its output collected on a thread so a test can wait for a phrase."""

    def __init__(self, arguments: list[str], home: Path, language: str | None = None) -> None:
        home.mkdir(parents=True, exist_ok=True)
        env = environment(home)
        if language:
            env.update(LANGUAGE=language, LC_ALL="", LC_MESSAGES="", LANG="")
        self.process = subprocess.Popen(
            COMMAND + arguments,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=home,
        )
        self.text = ""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for chunk in iter(lambda: self.process.stdout.read1(4096), b""):  # type: ignore[union-attr]
            with self._lock:
                self.text += chunk.decode("utf-8", "replace")

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()

    def type_together(self, *lines: str) -> None:
        """Several lines in one write, as a paste or a quick typist's lines reach a pipe."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines).encode())
        self.process.stdin.flush()

    def wait_for(self, pattern: str, timeout: float = 20.0, after: int = 0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                found = re.search(pattern, self.text[after:])
            if found:
                return found
            time.sleep(0.01)
        raise AssertionError(f"no {pattern!r} in:\n{self.text[-1500:]}")

    def mark(self) -> int:
        with self._lock:
            return len(self.text)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.kill()
        return self.process.wait(10)


def serve(tmp_path: Path) -> tuple[str, list[Program]]:
    """``mahjong-battle serve`` on a free port of 127.0.0.1, once it says it listens: its URL, and
    the list of programs a test stops at its end."""
    port = free_port()
    server = Program(
        ["serve", "--port", str(port), "--db", str(tmp_path / "games.sqlite3"), "--solver-workers", "0"],
        tmp_path / "server",
    )
    try:
        server.wait_for(f"ws://127.0.0.1:{port} .* Ctrl-C stops it")
    except AssertionError:
        server.stop()
        raise
    return f"ws://127.0.0.1:{port}", [server]


def ann_hosts_bob(url: str, tmp_path: Path, programs: list[Program]) -> tuple[Program, Program]:
    """Ann hosts deal 5 and moves first; Bob joins with her code (both added to ``programs``)."""
    ann = Program(["play", "--online", url, "--deal", "5", "--first", "--player1", "Ann"], tmp_path / "ann")
    programs.append(ann)
    code = ann.wait_for(r"--join (\w{4}-\w{4})").group(1)
    bob = Program(["play", "--online", url, "--join", code, "--player1", "Bob"], tmp_path / "bob")
    programs.append(bob)
    return ann, bob


def test_two_terminals_play_over_a_server_and_keep_the_record(tmp_path: Path) -> None:
    url, programs = serve(tmp_path)
    try:
        ann = Program(["play", "--online", url, "--deal", "5", "--first", "--player1", "Ann"], tmp_path / "ann")
        programs.append(ann)
        code = ann.wait_for(r"--join (\w{4}-\w{4})").group(1)
        watch = ann.wait_for(r"Watch code for spectators: (\w{4}-\w{4})").group(1)
        bob = Program(["play", "--online", url, "--join", code.lower(), "--player1", "Bob"], tmp_path / "bob")
        programs.append(bob)
        bob.wait_for("Ann 0 : 0 Bob")
        bob.wait_for("Waiting for Ann's move; you are Bob.")  # Ann hosts and moves first
        eve = Program(["play", "--online", url, "--watch", watch], tmp_path / "eve")
        programs.append(eve)
        eve.wait_for("Ann 0 : 0 Bob")
        ann.wait_for("Ann, your move")
        ann.type("moves")
        move = ann.wait_for(r"\n  (\w\d-\w\d) \(\d+\)").group(1)
        mark = bob.mark()
        ann.type(move)
        ann.wait_for(f"Move 1, {move}, is on the server.")
        ann.wait_for("Waiting for Bob's move; you are Ann.")
        bob.wait_for(f"Ann takes {move} for", after=mark)
        eve.wait_for(f"Ann takes {move} for")
        eve.type("a1-b1")
        eve.wait_for("You are watching this game")
        assert "Waiting for" not in eve.text  # a spectator waits for nobody's move of its own
        bob.wait_for("Bob, your move")
        bob.type("hint")  # the offline game's words: said what a game between people has instead
        bob.wait_for(r"No hints in a game between people: each side plays on its own\.")
        bob.type("undo")
        bob.wait_for("In an online game 'takeback' asks your opponent")
        bob.type("b2-b3")
        bob.wait_for(r"b2-b3: .* not free|not free")
        bob.type("takeback")
        bob.wait_for("Only the player who made the last move can ask to take it back.")
        bob.type("resign")
        bob.wait_for(r"Resign this game\? \(y/n\)")
        bob.type("y")
        ann.wait_for(r"The game is over\. Bob resigned; you win, \d+-\d+\.")
        bob.type("rematch")
        ann.wait_for("Bob offers a rematch: yes or no?")
        ann.type("no")
        ann.wait_for("You turned down the rematch.")
        bob.wait_for("Ann turned down the rematch.")
        ann.type(f"save {tmp_path / 'online.mbg'}")
        ann.wait_for("Saved the record to")
        ann.type("quit")
        assert ann.process.wait(10) == 0
        bob.process.stdin.close()  # type: ignore[union-attr]
        bob.wait_for("Input closed: leaving")
        assert bob.process.wait(10) == 0
        game = Game.from_text((tmp_path / "online.mbg").read_text())
        assert game.names == ("Ann", "Bob") and [game.moves[0]] == game.moves and game.deal_number == 5
        # each player's history keeps the game once, with the winner its scores do not say; the spectator's none
        for who, seat, result in (("ann", 1, 1), ("bob", 2, -1)):
            with History(tmp_path / who / "data" / "mahjong-battle" / "history.sqlite3") as history:
                [kept] = history.games()
            assert (kept.front_end, kept.you, kept.winner, kept.result_for(seat)) == ("online", seat, 1, result)
            assert kept.players == ("Ann", "Bob") and kept.record == game.to_text()
        assert not (tmp_path / "eve" / "data" / "mahjong-battle" / "history.sqlite3").exists()
    finally:
        for program in programs:
            program.stop()


def test_takeback_requests_and_their_answers_are_told_to_both_players(tmp_path: Path) -> None:
    url, programs = serve(tmp_path)
    try:
        ann, bob = ann_hosts_bob(url, tmp_path, programs)
        ann.wait_for("Bob joined.")

        def first_move(player: Program) -> str:
            mark = player.mark()
            player.type("moves")
            return player.wait_for(r"\n  (\w\d-\w\d) \(\d+\)", after=mark).group(1)

        move = first_move(ann)
        ann.type(move)
        ann.wait_for(f"Move 1, {move}, is on the server.")
        ann.type("takeback")
        bob.wait_for("Ann asks to take back their last move: yes or no?")
        bob.type("no")
        bob.wait_for("You said no to the takeback.")
        ann.wait_for("Bob said no to the takeback.")
        ann.type("takeback")  # the same move again: the server refuses, and Bob is not asked
        ann.wait_for("Your opponent said no to taking back this move.")
        # whom the game waits for is said once a turn, not again before each answer to a line typed
        assert ann.text.count("Waiting for Bob's move; you are Ann.") == 1, ann.text
        mark = ann.mark()
        bob.type(first_move(bob))
        ann.wait_for("Bob takes", after=mark)
        second = first_move(ann)
        ann.type(second)
        ann.wait_for(f"Move 3, {second}, is on the server.")
        mark = bob.mark()
        ann.type("takeback")
        bob.wait_for("Ann asks to take back their last move: yes or no?", after=mark)
        mark = ann.mark()
        bob.type("yes")
        ann.wait_for(f"Bob let you take back {second}.(.|\\n)*Ann \\d+ : \\d+ Bob", after=mark)  # and the board
        bob.wait_for(f"Ann took back {second}.")
        ann.type(second)
        ann.wait_for(f"Move 3, {second}, is on the server.", after=mark)
        mark = bob.mark()
        ann.type("takeback")
        bob.wait_for("Ann asks to take back their last move: yes or no?", after=mark)
        bob.type(first_move(bob))
        ann.wait_for("Bob moved instead: no takeback.")
        ann.type("quit")
        assert ann.process.wait(10) == 0
    finally:
        for program in reversed(programs):
            program.stop()


def test_the_host_aborts_a_game_nobody_joined_and_its_code_then_says_so(tmp_path: Path) -> None:
    url, programs = serve(tmp_path)
    try:
        ann = Program(["play", "--online", url, "--player1", "Ann"], tmp_path / "ann")
        programs.append(ann)
        code = ann.wait_for(r"--join (\w{4}-\w{4})").group(1)
        ann.type("abort")
        ann.wait_for(r"You called the game off before its second move: it counts for nothing\.")
        ann.type("quit")
        assert ann.process.wait(10) == 0
        bob = Program(["play", "--online", url, "--join", code, "--player1", "Bob"], tmp_path / "bob")
        programs.append(bob)
        bob.wait_for("The host called this game off before anyone joined.")
        assert bob.process.wait(20) == 2
    finally:
        for program in reversed(programs):
            program.stop()


def test_lines_typed_together_are_all_carried_out_and_quit_waits_for_the_move(tmp_path: Path) -> None:
    url, programs = serve(tmp_path)
    try:
        ann, bob = ann_hosts_bob(url, tmp_path, programs)
        ann.wait_for("Ann, your move")
        ann.type("moves")
        move = ann.wait_for(r"\n  (\w\d-\w\d) \(\d+\)").group(1)
        mark = ann.mark()
        ann.type_together("help", move, "quit")  # one write; the input stays open after it
        ann.wait_for("help  ", after=mark)
        confirmed = ann.wait_for(f"Move 1, {re.escape(move)}, is on the server.", after=mark)
        leaving = ann.wait_for("Leaving. The game waits on the server", after=mark)
        assert confirmed.start() < leaving.start()
        assert ann.process.wait(20) == 0
        bob.wait_for(f"Ann takes {re.escape(move)} for")
    finally:
        for program in reversed(programs):
            program.stop()


def test_a_terminal_comes_back_to_its_game_with_resume(tmp_path: Path) -> None:
    url, programs = serve(tmp_path)
    try:
        ann = Program(["play", "--online", url, "--player1", "Ann"], tmp_path / "ann")
        programs.append(ann)
        code = ann.wait_for(r"--join (\w{4}-\w{4})").group(1)
        link = url.replace("ws://", "http://") + f"/join/{code}"
        ann.wait_for(r"Invite link \(opens the game in a browser\): " + re.escape(link) + r"-\w{24}\n")  # its secret
        ann.type("quit")
        ann.wait_for("waits on the server")
        assert ann.process.wait(10) == 0
        again = Program(["play", "--online", url, "--resume"], tmp_path / "ann")
        programs.append(again)
        assert again.wait_for(r"Invite code: (\w{4}-\w{4})").group(1) == code
    finally:
        for program in programs:
            program.stop()


def test_a_game_the_server_cannot_rebuild_is_said_so_at_once(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "games.sqlite3"
    serving = ["serve", "--port", str(port), "--db", str(database), "--solver-workers", "0"]
    url = f"ws://127.0.0.1:{port}"
    programs = [Program(serving, tmp_path / "server")]
    try:
        programs[0].wait_for("Ctrl-C stops it")
        ann = Program(["play", "--online", url, "--player1", "Ann"], tmp_path / "ann")
        programs.append(ann)
        ann.wait_for(r"--join (\w{4}-\w{4})")
        ann.type("quit")
        assert ann.process.wait(10) == 0
        programs[0].stop()
        with sqlite3.connect(database) as connection:  # its options damaged, as a bad row would be
            connection.execute("UPDATE games SET options = '{\"bad\": 1}'")
        server = Program(serving, tmp_path / "server")
        programs.append(server)
        server.wait_for("left out: game .* does not rebuild")
        server.wait_for("Ctrl-C stops it")
        again = Program(["play", "--online", url, "--resume"], tmp_path / "ann")
        programs.append(again)
        again.wait_for("the server could not load that game: its record there is damaged")
        assert again.process.wait(20) == 2 and "Is the server running" not in again.text
    finally:
        for program in reversed(programs):
            program.stop()


def test_online_mistakes_get_one_line(tmp_path: Path) -> None:
    cases = [
        (["play", "--online", "http://example.org"], "is not a server address like ws://"),
        (["play", "--join", "ABCD-EFGH"], "--join goes with --online URL"),
        (["play", "--online", "ws://127.0.0.1:9", "--join", "ABCD-EFGH", "--watch", "ABCD-EFGH"], "choose one"),
        (["play", "--online", "ws://127.0.0.1:9", "--join", "AB"], "--join:"),
        (["play", "--online", "ws://127.0.0.1:9", "--vs", "club"], "--online plays a person"),
        (["play", "--online", "ws://127.0.0.1:9", "--lose-on-time"], "--lose-on-time needs --move-seconds"),
        (["play", "--online", "ws://127.0.0.1:9", "--resume"], "no online game on ws://127.0.0.1:9 to resume"),
        (["serve", "--port", "70000"], "is not a port number"),
        (["serve", "--solver-refill", "0"], "is not a number above 0"),
    ]
    for arguments, phrase in cases:
        done = subprocess.run(
            COMMAND + arguments,
            capture_output=True,
            text=True,
            env=environment(tmp_path),
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2, (arguments, done.stdout, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) in (1, 2) and phrase in done.stderr, (arguments, done.stderr)


def test_a_server_that_cannot_be_reached_is_said_in_one_line(tmp_path: Path) -> None:
    started = time.monotonic()
    done = subprocess.run(
        COMMAND + ["play", "--online", f"ws://127.0.0.1:{free_port()}"],
        capture_output=True,
        text=True,
        env=environment(tmp_path),
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    [line] = done.stderr.splitlines()  # an error like every other: one line on stderr
    assert line.startswith("mahjong-battle: cannot reach ws://127.0.0.1:") and "Is the server running" in line
    assert all("trying again" in note for note in done.stdout.splitlines())  # stdout: only the note that it retries
    assert time.monotonic() - started < 30


def test_an_unknown_invite_code_is_one_line_on_stderr(tmp_path: Path) -> None:
    with ServerProcess(tmp_path) as server:
        done = subprocess.run(
            COMMAND + ["play", "--online", server.url, "--join", "ZZZZ-ZZZZ"],
            capture_output=True,
            text=True,
            env=environment(tmp_path),
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    assert (done.returncode, done.stdout) == (2, ""), (done.stdout, done.stderr)
    assert done.stderr.splitlines() == ["mahjong-battle: No game has this invite code."]


def test_after_a_resignation_no_prompt_comes_and_quit_says_the_game_is_over(tmp_path: Path) -> None:
    """The resigning side is not asked for a move before the result, the asker of a takeback hears
    that the request went out, and quit after the end does not say the game waits on the server."""
    with ServerProcess(tmp_path) as server:
        programs: list[Program] = []
        try:
            ann = Program(["play", "--online", server.url, "--deal", "5", "--first"], tmp_path / "ann")
            programs.append(ann)
            code = ann.wait_for(r"--join (\w{4}-\w{4})").group(1)
            bob = Program(["play", "--online", server.url, "--join", code], tmp_path / "bob")
            programs.append(bob)
            ann.wait_for("Player 1, your move")
            ann.type("moves")
            move = ann.wait_for(r"\n  (\w\d-\w\d) \(\d+\)").group(1)
            ann.type(move)
            ann.wait_for(f"Move 1, {move}, is on the server.")
            mark = ann.mark()
            ann.type("takeback")
            ann.wait_for("You asked Player 2 to let you take back your last move", after=mark)
            bob.wait_for("Player 1 asks to take back their last move: yes or no?")
            bob.type("no")
            ann.wait_for("Player 2 said no to the takeback.")
            bob.wait_for("Player 2, your move")
            bob.type("resign")
            bob.wait_for(r"Resign this game\? \(y/n\)")
            mark = bob.mark()
            bob.type("y")
            end = bob.wait_for(r"The game is over\. You resigned; Player 1 wins, \d+-\d+\.", after=mark)
            assert "your move" not in bob.text[mark : mark + end.start()], bob.text[mark:]
            mark = bob.mark()
            bob.type("quit")
            assert bob.process.wait(20) == 0
            bob.wait_for("Leaving. The game is over.", after=mark)
            assert "waits on the server" not in bob.text[mark:]
        finally:
            for program in reversed(programs):
                program.stop()


def test_the_invite_link_names_an_address_a_friend_can_reach(tmp_path: Path) -> None:
    """On a server for this machine only the link says it works here only; behind a proxy the
    link and the ``--join`` line name ``--public-url``, though the host came in over loopback."""
    (tmp_path / "here").mkdir()
    with ServerProcess(tmp_path / "here") as server:
        ann = Program(["play", "--online", server.url, "--deal", "5"], tmp_path / "ann")
        try:
            ann.wait_for(rf"Invite link \(opens the game in a browser\): {server.base}/join/\w{{4}}-\w{{4}}")
            ann.wait_for("This link works on this machine only. For a friend elsewhere, start the server with")
        finally:
            ann.stop()
    (tmp_path / "proxied").mkdir()
    with ServerProcess(tmp_path / "proxied", "--public-url", "https://games.example.org") as server:
        ann = Program(["play", "--online", server.url, "--deal", "5"], tmp_path / "ann2")
        try:
            ann.wait_for(r"mahjong-battle play --online wss://games.example.org --join \w{4}-\w{4}")
            ann.wait_for(
                r"Invite link \(opens the game in a browser\): https://games.example.org/join/\w{4}-\w{4}-\w{24}"
            )
            ann.wait_for(r"\(link: https://games.example.org/watch/\w{4}-\w{4}-\w{24}\)")
            assert "this machine only" not in ann.text
        finally:
            ann.stop()


def test_a_seat_without_a_name_reads_in_the_readers_language(tmp_path: Path) -> None:
    """The joiner gives no name: the server keeps none, and a German terminal calls the seat
    "Spieler 2" (not an English default the server stored as if typed)."""
    with ServerProcess(tmp_path) as server:
        anna = Program(
            ["play", "--online", server.url, "--deal", "5", "--first", "--player1", "Anna"], tmp_path / "anna", "de"
        )
        try:
            code = anna.wait_for(r"--join (\w{4}-\w{4})").group(1)
            guest = Client(server.url)  # no name in hello, none in join
            guest.send({"type": "join", "code": code})
            assert guest.expect("state")["players"][1]["name"] == ""
            anna.wait_for("Anna 0 : 0 Spieler 2")
            assert "Player 2" not in anna.text
            guest.close()
        finally:
            anna.stop()


def test_a_host_named_you_is_named_and_refusals_and_the_end_are_german(tmp_path: Path) -> None:
    """The terminal tells "you" by seat: the opponent named "You" takes a pair in the third person.
    The server's refusal and the game's end come in the reader's German, from the code and the result."""
    url, programs = serve(tmp_path)
    host = Client(url, "You")
    try:
        host.send({"type": "create", "deal": {"number": 5}, "first": "creator", "name": "You"})
        created = host.expect("created")
        state = host.expect("state")
        bob = Program(
            ["play", "--online", url, "--join", created["invite"], "--player1", "Bob"], tmp_path / "bob", "de"
        )
        programs.append(bob)
        host.expect("state", timeout=30)
        move = a_legal_move(state)
        host.send({"type": "move", "move": move, "id": "y1"})
        bob.wait_for(f"You nimmt {move} für")
        assert "Du nimmst" not in bob.text
        bob.type("takeback")
        bob.wait_for("Nur wer den letzten Zug gemacht hat, kann bitten, ihn zurückzunehmen.")
        host.send({"type": "resign"})
        bob.wait_for(r"Die Partie ist zu Ende\. You hat aufgegeben; du gewinnst, \d+-\d+\.")
        for english in ("only the player", "resigned", "wins by", "Refused"):
            assert english not in bob.text, english
    finally:
        host.close()
        for program in programs:
            program.stop()
