"""Two copies of the program on one unfinished game, the window among them, as a user meets them: every
move a copy showed as saved is in the record at the end (the two-copies probe, 20 set-ups).

The window runs here (posted events, real frames), each terminal as a real process. A copy reads a
game's record when it takes the claim; one it cannot claim plays the game as not saved and says
why; nothing is written or deleted without the claim. A ``Ledger`` keeps, for every copy, the
moves of its game at each move it showed as saved (the window with no "Not saved" over the board,
a terminal that said no "Not saved"); the record at the end must begin with each of them.

The set-ups: terminal first, window first, the title's stale list (clicked at once, or after the
window got the focus back), the "Your last game is not finished" dialog answered after a terminal
took the game (the terminal plays on, the window plays meanwhile, the terminal leaves it unchanged),
Discard of a game a terminal holds or changed, a window closed before a terminal, and each kind
of lock file that cannot be used (a folder, a symbolic link to a folder, a dangling link, an
immutable file, a mode-000 file) with the terminal first and with the window first. A few run by
default (one per rule); ``-m slow`` runs all 20.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from battle.rules.board import move_name
from battle.rules.game import Game
from battle.storage.game_claim import release_all_but
from battle.storage.saved_games import new_game_id
from battle.ui.choice_scene import ChoiceScene
from battle.ui.play.play_scene import PlayScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui
from tests.cli.terminal_process import TerminalProcess, run

PROMPT = "to move> "


def folder(home: Path) -> Path:
    return home / "data" / "mahjong-battle" / "unfinished"


def record_moves(home: Path, game_id: str) -> list[str]:
    """The moves of the game's record, unfinished or finished (none when it is gone)."""
    for where in (folder(home), folder(home).parent / "finished"):
        path = where / f"{game_id}.mbg"
        if path.exists():
            return [move_name(move) for move in Game.from_text(path.read_text()).moves]
    return []


def make_game(home: Path, deal: int, age: float = 0.0) -> str:
    """An unfinished hot-seat game of ``deal`` with one move, as a terminal leaves one, last saved
    ``age`` seconds ago; its id."""
    game = Game.new(deal)
    game.play(game.position.legal_moves()[0])
    game_id = new_game_id()
    folder(home).mkdir(parents=True, exist_ok=True)
    record = folder(home) / f"{game_id}.mbg"
    (folder(home) / f"{game_id}.json").write_text(json.dumps({"format": 1, "front_end": "terminal"}))
    record.write_text(game.to_text())
    os.utime(record, (time.time() - age, time.time() - age))
    return game_id


class Ledger:
    """Every copy's line of moves at each move it showed as saved."""

    def __init__(self, home: Path, game_id: str) -> None:
        self.home, self.game_id = home, game_id
        self.lines: list[list[str]] = [record_moves(home, game_id)]

    def confirm(self, moves: list[str]) -> None:
        self.lines.append(list(moves))

    def lost(self) -> int:
        """Confirmed moves the record does not hold, over all the lines."""
        final = record_moves(self.home, self.game_id)
        lost = 0
        for line in self.lines:
            same = 0
            while same < min(len(line), len(final)) and line[same] == final[same]:
                same += 1
            lost += len(line) - same
        return lost


class Terminal:
    """``play ARGS`` as a real process, moves typed one by one and checked against the record it read."""

    def __init__(self, home: Path, args: list[str], ledger: Ledger) -> None:
        self.ledger = ledger
        self.process = TerminalProcess(args, home)
        self.at = self.process.wait_for(PROMPT)
        self.game = Game.from_text((folder(home) / f"{ledger.game_id}.mbg").read_text())  # as it read it

    @property
    def not_saved(self) -> bool:
        return "Not saved:" in self.process.seen or "could not be saved" in self.process.seen

    def play(self, count: int) -> None:
        for _ in range(count):
            move = self.game.position.legal_moves()[0]
            self.process.type(move_name(move))
            self.game.play(move)
            self.at = self.process.wait_for(PROMPT, self.process.wait_for(" plays ", self.at))
            if not self.not_saved:
                self.ledger.confirm([move_name(m) for m in self.game.moves])

    def quit(self) -> None:
        self.process.type("quit")
        self.process.wait_for("game", self.at)
        assert self.process.finish()[0] == 0

    def kill(self) -> None:
        os.kill(self.process.process.pid, signal.SIGKILL)
        self.process.process.wait(60)


def window_play(app, ledger: Ledger, count: int) -> PlayScene:  # noqa: ANN001
    scene = ui.play_scene(app)
    for _ in range(count):
        ui.play_move(app, scene.position.legal_moves()[0])
        if scene.save_problem is None:
            ledger.confirm([move_name(move) for move in scene.game.moves])
    return scene


def title_of(app) -> TitleScene:  # noqa: ANN001
    title = app.stack.top
    assert isinstance(title, TitleScene), title
    return title


def resume(app) -> bool:  # noqa: ANN001
    """Click the title's Resume; True when the game opened."""
    ui.click_button(app, title_of(app).widgets["resume"])
    return isinstance(app.stack.top, PlayScene)


def to_title(app) -> TitleScene:  # noqa: ANN001
    ui.key(app, pygame.K_n)
    return title_of(app)


def until_saved_again(app, scene: PlayScene) -> PlayScene:  # noqa: ANN001
    """Frames until the window saves the game again or plays on from the record another copy left."""
    ui.run_until(app, lambda: ui.play_scene(app).save_problem is None)
    return ui.play_scene(app)


# -- the set-ups -------------------------------------------------------------------------------


def terminal_first(home: Path, new_app: Callable, game_id: str) -> Ledger:
    ledger = Ledger(home, game_id)
    terminal = Terminal(home, ["play", "--resume"], ledger)
    terminal.play(2)
    app = new_app()
    assert not resume(app)  # refused in one line naming the terminal
    assert f"(pid {terminal.process.process.pid})" in title_of(app).status.text
    assert title_of(app).widgets["resume"].text.startswith("In use: ")
    terminal.play(1)
    terminal.quit()
    assert resume(app)
    window_play(app, ledger, 1)
    to_title(app)
    return ledger


def window_first(home: Path, new_app: Callable, game_id: str) -> Ledger:
    ledger = Ledger(home, game_id)
    app = new_app()
    assert resume(app)
    window_play(app, ledger, 2)
    second = run(["play", "--resume"], home, "quit\n")
    assert second.returncode == 2
    assert f"(pid {os.getpid()})" in second.stderr and len(second.stderr.strip().splitlines()) == 1
    window_play(app, ledger, 1)
    app.close()  # the window ends: its lock file goes with it
    terminal = Terminal(home, ["play", "--resume"], ledger)
    terminal.play(1)
    terminal.quit()
    return ledger


def stale_title(home: Path, new_app: Callable, game_id: str, *, focus: bool = False) -> Ledger:
    ledger = Ledger(home, game_id)
    app = new_app()  # the title lists the game at move 2
    assert title_of(app).widgets["resume"].text.endswith("move 2")
    terminal = Terminal(home, ["play", "--resume"], ledger)  # "open in another copy": the user finishes there
    terminal.play(2)
    terminal.quit()
    if focus:  # the user comes back to the window: the list is read again
        app.step([pygame.event.Event(pygame.WINDOWFOCUSGAINED)], ui.DT)
        assert title_of(app).widgets["resume"].text.endswith("move 4"), title_of(app).widgets["resume"].text
    assert resume(app)
    scene = ui.play_scene(app)
    assert [move_name(move) for move in scene.game.moves] == ledger.lines[-1]  # the record as the terminal left it
    if not focus:
        assert "played on in another copy" in scene.status.text, scene.status.text
    window_play(app, ledger, 1)
    to_title(app)
    return ledger


def stale_dialog(home: Path, new_app: Callable, game_id: str, *, window_moves: int = 0, more: int = 2) -> Ledger:
    """The dialog is on screen when a terminal takes the game; Resume it shows it not saved until the
    terminal lets go, then the window saves on (unchanged) or plays on from the terminal's moves."""
    ledger = Ledger(home, game_id)
    app = new_app()
    assert resume(app)
    window_play(app, ledger, 1)
    title = to_title(app)
    title.widgets["deal"].set_text("6")
    ui.click_button(app, title.widgets["start"])
    question = app.stack.top
    assert isinstance(question, ChoiceScene) and "deal 5" in question.text
    terminal = Terminal(home, ["play", "--resume"], ledger)
    terminal.play(1)
    ui.click_button(app, question.buttons["resume"])
    scene = ui.play_scene(app)
    assert scene.save_problem is not None and "open in another copy" in scene.save_problem, scene.save_problem
    assert f"(pid {terminal.process.process.pid})" in scene.save_problem
    window_play(app, ledger, window_moves)  # not saved: none of these is confirmed
    terminal.play(more)
    terminal.quit()
    scene = until_saved_again(app, scene)
    if more:
        assert "changed in another copy" in scene.status.text, scene.status.text
        assert [move_name(move) for move in scene.game.moves] == ledger.lines[-1]
    else:
        assert "saved here again" in scene.status.text, scene.status.text
    window_play(app, ledger, 1)
    to_title(app)
    return ledger


def discard_held(home: Path, new_app: Callable, game_id: str, *, terminal_quits: bool = False) -> Ledger:
    ledger = Ledger(home, game_id)
    make_game(home, 6)  # the newest game: the one to discard is listed under it
    app = new_app()
    title = title_of(app)
    assert title.others and title.others[0].game_id == game_id
    terminal = Terminal(home, ["play", "--resume", "2"], ledger)
    terminal.play(1)
    if terminal_quits:
        terminal.quit()  # the list the window shows is now a move behind
    ui.click_button(app, title.widgets["discard:0"])
    ui.click_button(app, app.stack.top.buttons["discard"])
    status = title_of(app).status.text
    assert status.startswith("Not discarded: "), status
    assert ("changed in another copy" if terminal_quits else "open in another copy") in status, status
    assert record_moves(home, game_id) == ledger.lines[-1]
    if not terminal_quits:
        terminal.play(1)
        terminal.kill()
    return ledger


def window_closed_then_terminal(home: Path, new_app: Callable, game_id: str) -> Ledger:
    ledger = Ledger(home, game_id)
    app = new_app()
    assert resume(app)
    window_play(app, ledger, 1)
    app.close()
    assert not list(folder(home).glob("*.lock"))  # gone with the window, as with a terminal
    terminal = Terminal(home, ["play", "--resume"], ledger)
    assert not terminal.not_saved
    terminal.play(1)
    terminal.quit()
    return ledger


# -- lock files that cannot be used ------------------------------------------------------------


@contextlib.contextmanager
def unusable_lock(home: Path, game_id: str, kind: str) -> Iterator[str | None]:
    """``ID.lock`` made unusable as ``kind``; yields the reason a copy gives (None: the lock still works)."""
    lock = folder(home) / f"{game_id}.lock"
    if kind == "folder":
        lock.mkdir()
        yield f"its lock file {lock.name} is a folder"
    elif kind in ("link-to-folder", "dangling-link"):
        target = home / "elsewhere"
        if kind == "link-to-folder":
            target.mkdir()
        lock.symlink_to(target)
        yield f"its lock file {lock.name} is a symbolic link"
    elif kind == "mode-000":
        lock.write_text("")
        lock.chmod(0)
        yield None if os.geteuid() == 0 else "Permission denied"  # root opens it all the same
    else:
        lock.write_text("")
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(lock)]).returncode != 0:
            pytest.skip("no immutable files here (chattr needs root and a file system that has them)")
        try:
            yield None  # read-only, yet a lock: it works
        finally:
            subprocess.run(["chattr", "-i", str(lock)], check=True)


def lock_terminal_first(home: Path, new_app: Callable, game_id: str, kind: str) -> Ledger:
    with unusable_lock(home, game_id, kind) as reason:
        ledger = Ledger(home, game_id)
        terminal = Terminal(home, ["play", "--resume"], ledger)
        if reason:
            assert f"Not saved: {reason}" in terminal.process.seen, terminal.process.seen
        terminal.play(1)
        app = new_app()
        opened = resume(app)
        if opened:
            scene = window_play(app, ledger, 1)
            if reason:
                assert scene.save_problem is not None and f"Not saved: {reason}" in scene.save_problem
        terminal.quit()
        if reason:  # the list holds the game as it was before the moves this copy could not save
            assert "The last moves are not kept" in terminal.process.seen
        if not opened:
            assert resume(app)
            window_play(app, ledger, 1)
        to_title(app)
        return ledger


def lock_window_first(home: Path, new_app: Callable, game_id: str, kind: str) -> Ledger:
    with unusable_lock(home, game_id, kind) as reason:
        ledger = Ledger(home, game_id)
        app = new_app()
        assert resume(app)
        scene = window_play(app, ledger, 2)
        if reason:
            assert scene.save_problem is not None and f"Not saved: {reason}" in scene.save_problem
        second = run(["play", "--resume"], home, "quit\n")
        if reason:
            assert f"Not saved: {reason}" in second.stdout  # no move played: the list holds it as it is
            assert "The game is kept in the list of unfinished games" in second.stdout
        window_play(app, ledger, 1)
        app.close()
        terminal = Terminal(home, ["play", "--resume"], ledger)
        terminal.play(1)
        terminal.quit()
        return ledger


LOCK_KINDS = ("folder", "link-to-folder", "dangling-link", "immutable", "mode-000")
SETUPS: dict[str, Callable[..., Ledger]] = {
    "terminal-first": terminal_first,
    "window-first": window_first,
    "stale-title": stale_title,
    "stale-title-after-focus": lambda *a: stale_title(*a, focus=True),
    "stale-dialog": stale_dialog,
    "stale-dialog-window-plays-meanwhile": lambda *a: stale_dialog(*a, window_moves=2),
    "stale-dialog-left-unchanged": lambda *a: stale_dialog(*a, window_moves=1, more=0),
    "discard-held": discard_held,
    "discard-changed": lambda *a: discard_held(*a, terminal_quits=True),
    "window-closed-then-terminal": window_closed_then_terminal,
    **{f"lock-{kind}-terminal-first": (lambda *a, kind=kind: lock_terminal_first(*a, kind)) for kind in LOCK_KINDS},
    **{f"lock-{kind}-window-first": (lambda *a, kind=kind: lock_window_first(*a, kind)) for kind in LOCK_KINDS},
}
DEFAULT = {
    "stale-title",
    "stale-dialog",
    "discard-held",
    "lock-folder-window-first",
    "lock-dangling-link-terminal-first",
}
"""One set-up for each rule runs by default (the stale list, the dialog, Discard, a lock file that cannot be used)."""


@pytest.mark.parametrize(
    "setup", [name if name in DEFAULT else pytest.param(name, marks=pytest.mark.slow) for name in SETUPS]
)
def test_two_copies_lose_no_confirmed_move(setup, tmp_path, monkeypatch) -> None:
    assert len(SETUPS) == 20
    with ui.session(tmp_path, monkeypatch) as new_app:
        game_id = make_game(tmp_path, 5, age=60.0)
        try:
            ledger = SETUPS[setup](tmp_path, new_app, game_id)
        finally:
            release_all_but(None)
    assert len(ledger.lines) > 1 or setup.startswith("lock-")
    assert ledger.lost() == 0, (ledger.lines, record_moves(tmp_path, game_id))


def test_the_window_takes_its_lock_file_away_when_it_closes(tmp_path, monkeypatch) -> None:
    """A window run as root would otherwise leave a lock file the user's own copies can only read."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        make_game(tmp_path, 5)
        app = new_app()
        assert resume(app)
        ledger = Ledger(tmp_path, ui.play_scene(app).match.game_id)
        window_play(app, ledger, 1)
        assert len(ledger.lines) == 2 and list(folder(tmp_path).glob("*.lock"))  # saved, under its claim
        app.close()
        assert not list(folder(tmp_path).glob("*.lock"))
