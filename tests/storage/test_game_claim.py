"""The claim on an unfinished game, from the storage's side: a lock file that cannot be used is said
(never skipped), a claim reads the record it writes over, and nothing is written or deleted
without it. The copies themselves meet these in tests/ui/test_ui_two_copies.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from battle.rules.game import Game
from battle.storage.game_claim import GameUnclaimable, release_all_but
from battle.storage.saved_games import GameChanged, Shelf, new_game_id

ROOT = Path(__file__).resolve().parents[2]


def one_move_game() -> Game:
    game = Game.new(5, "Ann", "Ben")
    game.play(game.position.legal_moves()[0])
    return game


def kept_elsewhere(shelf: Shelf, game: Game) -> str:
    """A game's record as another copy of the program left it (written as files, not through this process)."""
    game_id = new_game_id()
    (shelf.unfinished_dir / f"{game_id}.mbg").write_text(game.to_text())
    return game_id


@pytest.fixture(autouse=True)
def no_claims_left() -> None:
    yield
    release_all_but(None)


@pytest.mark.parametrize("kind", ["folder", "link-to-folder", "dangling-link", "link-to-a-file", "fifo"])
def test_a_lock_file_that_cannot_be_used_is_said_and_nothing_is_written(tmp_path, kind) -> None:
    shelf = Shelf(tmp_path / "data")
    game = one_move_game()
    game_id = kept_elsewhere(shelf, game)
    record = shelf.record_path(game_id)
    lock = shelf.unfinished_dir / f"{game_id}.lock"
    notes = tmp_path / "notes.txt"
    notes.write_text("the user's own notes\n")
    if kind == "folder":
        lock.mkdir()
    elif kind == "link-to-folder":
        lock.symlink_to(tmp_path)
    elif kind == "dangling-link":
        lock.symlink_to(tmp_path / "nowhere")
    elif kind == "link-to-a-file":
        lock.symlink_to(notes)
    else:
        os.mkfifo(lock)
    with pytest.raises(GameUnclaimable) as raised:
        shelf.open_claimed(game_id)  # a FIFO is not waited on: this returns at once
    what = {"folder": "is a folder", "fifo": "is not a regular file"}.get(kind, "is a symbolic link")
    assert str(raised.value) == f"its lock file {lock.name} {what}"
    played_on = shelf.load(game_id)  # read without the claim: to be played as not saved
    played_on.game.play(played_on.game.position.legal_moves()[0])
    with pytest.raises(GameUnclaimable):
        shelf.save(played_on)
    with pytest.raises(GameUnclaimable):
        shelf.discard(game_id)
    assert record.read_text() == game.to_text()
    assert notes.read_text() == "the user's own notes\n"  # a link is never followed, so never truncated
    assert not (tmp_path / "nowhere").exists()
    assert shelf.holder(game_id) is None and shelf.unfinished()[0]  # the list still shows the game


def test_a_write_under_a_new_claim_never_goes_over_moves_made_elsewhere(tmp_path) -> None:
    shelf = Shelf(tmp_path / "data")
    game_id = kept_elsewhere(shelf, one_move_game())
    [listed], _problems = shelf.unfinished()  # read now, claimed later (a title's list)
    played_there = one_move_game()
    played_there.play(played_there.position.legal_moves()[0])
    shelf.record_path(game_id).write_text(played_there.to_text())  # another copy played on meanwhile
    listed.game.play(listed.game.position.legal_moves()[-1])
    with pytest.raises(GameChanged):
        shelf.save(listed)
    assert shelf.record_path(game_id).read_text() == played_there.to_text()
    assert shelf.holder(game_id) is None  # the claim was let go with the refusal
    fresh = shelf.open_claimed(game_id)  # claimed, then read: the other copy's moves
    assert fresh.game.moves == played_there.moves
    fresh.game.play(fresh.game.position.legal_moves()[-1])
    shelf.save(fresh)
    assert Game.from_text(shelf.record_path(game_id).read_text()).moves == fresh.game.moves


def test_discard_deletes_only_the_game_the_player_was_shown(tmp_path) -> None:
    shelf = Shelf(tmp_path / "data")
    game_id = kept_elsewhere(shelf, one_move_game())
    [listed], _problems = shelf.unfinished()
    played_there = one_move_game()
    played_there.play(played_there.position.legal_moves()[0])
    shelf.record_path(game_id).write_text(played_there.to_text())
    with pytest.raises(GameChanged):
        shelf.discard(game_id, listed.game)
    assert shelf.has(game_id)
    shelf.discard(game_id, played_there)
    assert not shelf.has(game_id)


HOLD = """
import sys
from pathlib import Path
from battle.storage.game_claim import GameInUse
from battle.storage.saved_games import Shelf
shelf = Shelf(Path(sys.argv[1]))
try:
    shelf.claim(sys.argv[2])
except GameInUse as error:
    print("refused:", error, flush=True)
    raise SystemExit(0)
print("claimed", flush=True)
sys.stdin.readline()
"""


def test_a_lock_file_left_by_root_is_claimed_read_only_by_the_user(tmp_path) -> None:
    """Permission bits are kept even for root here (``setpriv`` drops the override, as on CI)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to play a user meeting root's file")
    shelf = Shelf(tmp_path / "data")
    game_id = kept_elsewhere(shelf, one_move_game())
    lock = shelf.unfinished_dir / f"{game_id}.lock"
    lock.write_text(" 1\n")
    lock.chmod(0o444)
    user = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", sys.executable, "-c", HOLD]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    holder = subprocess.Popen(
        [*user, str(tmp_path / "data"), game_id], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "claimed"
        second = subprocess.run([*user, str(tmp_path / "data"), game_id], capture_output=True, text=True, env=env)
        assert second.stdout.startswith("refused: this game is open in another copy"), second.stdout + second.stderr
    finally:
        holder.communicate("\n", timeout=60)
