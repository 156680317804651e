"""The games kept on disk: every unfinished game, from the window or the terminal, and finished records.

Each game has a folder entry of its own, named by its id (the time it started plus
a random part, so two copies of the program never write to the same game):

- ``data_dir()/unfinished/ID.mbg``: the ordinary game record, readable by every command;
- ``data_dir()/unfinished/ID.json``: what a record does not say (which side the solver
  plays and at which level, which front end played it, whether the player chose to
  keep it for later).

A finished game's two files move to ``data_dir()/finished``. Nothing is ever
overwritten by another game, and only an explicit ``discard`` deletes one. A file
that does not load is renamed aside (``*.corrupt``) and reported, never fatal.
The files of earlier versions (``autosave.mbg`` of the window,
``terminal-autosave.mbg`` of the terminal) are taken into the list on first use.
A copy of the program that opens an unfinished game claims it (``game_claim``), so a
second copy is told the game is open elsewhere instead of writing over its moves. A copy
reads a game's record when it takes the claim, never before (``open_claimed``): a list read
earlier may be minutes old, and another copy may have played on meanwhile. Nothing is written
or deleted without the claim, and a write that takes the claim first checks that the record is
still the one this copy last read or wrote (``GameChanged`` when it is not), so an old copy of
a game is never written over the moves another copy made.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from battle.i18n import _, format_date, ngettext
from battle.rules.errors import BattleError
from battle.rules.game import Game
from battle.rules.wording import shown_name, solver_level
from battle.storage import game_claim
from battle.storage.game_claim import GameClaim, GameInUse, GameUnclaimable
from battle.storage.paths import (
    StorageProblem,
    data_dir,
    data_location,
    ensure_folder,
    error_reason,
    remove_stray_temporaries,
    set_aside,
    write_atomically,
)
from battle.storage.textfile import TextFileError, read_limited, read_text_file

FORMAT = 1
FRONT_ENDS = ("window", "terminal")
SIDECAR_LIMIT = 64 * 1024
"""A sidecar holds a few short fields; anything longer is not one of ours."""
LEGACY_RECORDS = (("autosave.mbg", "autosave.json", "window"), ("terminal-autosave.mbg", None, "terminal"))


_seen: dict[Path, str | None] = {}
"""Each record as this process last read or wrote it (None: gone), by path: what a claim taken
for a write checks the record against."""


def new_game_id(now: float | None = None) -> str:
    """``20261126-140512-3fa9c1``: sorts by start time, unique across copies of the program."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return f"{stamp}-{secrets.token_hex(3)}"


def _valid_id(game_id: str) -> bool:
    return (
        bool(game_id) and len(game_id) <= 64 and all(ch.isalnum() or ch == "-" for ch in game_id) and game_id.isascii()
    )


@dataclass
class SavedGame:
    """One game on the shelf, with what its sidecar says."""

    game_id: str
    game: Game
    solver_side: int | None = None
    """1 or 2 when the solver plays that side; None for two people."""
    level: str | None = None
    """The solver's level, when it plays."""
    front_end: str = "window"
    kept: bool = False
    """The player chose "keep it and start a new one": no longer the game a new start asks about."""
    saved_at: float = 0.0
    """When the record was last written (seconds since the epoch)."""
    from_ply: int = 0
    """The moves already played when the solver took its side (a review's "Retry from here");
    0 for a game played against it from the start."""

    def describe(self) -> str:
        """One line for a list: ``deal 5, Ann vs Ben, 10 moves, 26 Nov 14:05``."""
        game = self.game
        where = (
            _("deal {deal}").format(deal=game.deal_number) if game.deal_number is not None else _("composed position")
        )
        moves = ngettext("{count} move", "{count} moves", game.ply).format(count=game.ply)
        when = "?"
        if self.saved_at:
            moment = datetime.datetime.fromtimestamp(self.saved_at)
            day = format_date(moment.date(), _("d MMM"))  # a Babel pattern: "27 Nov", "27. Nov."
            when = f"{day} {moment:%H:%M}"
        return _("{where}, {first} vs {second}, {moves}, {when}").format(
            where=where, first=shown_name(game.player1), second=shown_name(game.player2), moves=moves, when=when
        )

    def sidecar(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "solver_side": self.solver_side,
            "level": self.level,
            "front_end": self.front_end,
            "kept": self.kept,
            "from_ply": self.from_ply,
        }


class Shelf:
    """The unfinished and finished games in one data folder (``data_dir()`` unless given)."""

    def __init__(self, folder: Path | None = None) -> None:
        self._folder = folder

    # -- folders ---------------------------------------------------------------------------

    @property
    def folder(self) -> Path:
        return ensure_folder(self._folder) if self._folder is not None else data_dir()

    @property
    def unfinished_dir(self) -> Path:
        return ensure_folder(self.folder / "unfinished")

    @property
    def finished_dir(self) -> Path:
        return ensure_folder(self.folder / "finished")

    def _unfinished_to_read(self) -> tuple[Path, StorageProblem | None]:
        """The unfinished games' folder, and why it cannot be written if it cannot. One that exists
        but cannot be written (a read-only file system, another user's folder) is read as it is: its
        games are listed and played, and the player told they are not saved. ``StorageProblem``
        when there is no folder to read either."""
        try:
            return self.unfinished_dir, None
        except StorageProblem as problem:
            folder = (self._folder if self._folder is not None else data_location()) / "unfinished"
            if folder.is_dir() and os.access(folder, os.R_OK | os.X_OK):
                return folder, problem
            raise

    def record_path(self, game_id: str) -> Path:
        return self.unfinished_dir / f"{game_id}.mbg"

    def finished_path(self, game_id: str) -> Path:
        return self.finished_dir / f"{game_id}.mbg"

    # -- writing ---------------------------------------------------------------------------

    def save(self, saved: SavedGame) -> Path:
        """Write an unfinished game (the sidecar first: a crash between the two writes leaves the
        previous record with a sidecar that still names the same roles). Returns the record's path.

        The game is claimed for this process (and stays claimed: its player plays on). Raises
        ``GameInUse``, ``GameUnclaimable`` or ``GameChanged`` (nothing written), or OSError
        (``StorageProblem`` among them) with the previous files intact.
        """
        if not _valid_id(saved.game_id):
            raise ValueError(f"not a game id: {saved.game_id!r}")
        self._claim_for_writing(saved.game_id)
        folder = self.unfinished_dir
        record = folder / f"{saved.game_id}.mbg"
        text = saved.game.to_text()
        write_atomically(folder / f"{saved.game_id}.json", json.dumps(saved.sidecar()) + "\n")
        write_atomically(record, text)
        _seen[record] = text
        # a finished game taken back by an undo is unfinished again: one copy of it, not two
        for stale in (self.finished_dir / f"{saved.game_id}.mbg", self.finished_dir / f"{saved.game_id}.json"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(stale)
        return record

    def finish(self, saved: SavedGame) -> Path:
        """Keep a finished game's record in the finished folder and take it off the unfinished list
        (claimed first, as ``save`` does)."""
        self._claim_for_writing(saved.game_id)
        folder = self.finished_dir
        record = folder / f"{saved.game_id}.mbg"
        write_atomically(folder / f"{saved.game_id}.json", json.dumps(saved.sidecar()) + "\n")
        write_atomically(record, saved.game.to_text())
        self._remove_unfinished(saved.game_id)
        return record

    def keep(self, game_id: str) -> None:
        """Mark an unfinished game as kept for later (a new game no longer asks about it); raises
        ``GameInUse`` when another copy holds it."""
        with self._holding(game_id, check=False):
            saved = self.load(game_id)
            saved.kept = True
            write_atomically(self.unfinished_dir / f"{game_id}.json", json.dumps(saved.sidecar()) + "\n")

    def discard(self, game_id: str, as_shown: Game | None = None) -> None:
        """Delete an unfinished game: the one way a game leaves the shelf without being finished.
        Raises ``GameInUse`` when another copy holds it, and ``GameChanged`` when its record is no
        longer ``as_shown``, the game the player decided on (another copy played on since)."""
        with self._holding(game_id, check=False):
            if as_shown is not None:
                on_disk = _record_text(self.record_path(game_id))
                if on_disk is None or not _same_game(on_disk, as_shown):
                    raise GameChanged(gone=on_disk is None)
            self._remove_unfinished(game_id)

    def _remove_unfinished(self, game_id: str) -> None:
        folder = self.unfinished_dir
        for name in (f"{game_id}.mbg", f"{game_id}.json"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(folder / name)
        _seen[folder / f"{game_id}.mbg"] = None

    def _claim_for_writing(self, game_id: str, *, check: bool = True) -> bool:
        """Claim ``game_id`` before a write; True when this call took the claim (it was not held).

        A claim taken here is checked: the record must be the one this copy last read or wrote,
        or a record nobody has made yet (``GameChanged`` otherwise, and the claim is let go)."""
        folder = self._claims_folder()
        if game_claim.holds(folder, game_id):
            return False
        self.claim(game_id)
        record = folder / f"{game_id}.mbg"
        if check and _record_text(record) != _seen.get(record):
            game_claim.release(folder, game_id)
            raise GameChanged(gone=not record.exists())
        return True

    @contextlib.contextmanager
    def _holding(self, game_id: str, *, check: bool = True) -> Iterator[None]:
        """The claim for one change, let go after it unless this process held it before."""
        took = self._claim_for_writing(game_id, check=check)
        try:
            yield
        finally:
            if took:
                self.release(game_id)

    # -- one copy of the program per game (see ``game_claim``) ---------------------------------

    def claim(self, game_id: str) -> GameClaim:
        """Hold ``game_id`` for this process; ``GameInUse`` names the copy that holds it,
        ``GameUnclaimable`` says why no claim can be made here."""
        return game_claim.claim(self._claims_folder(), game_id)

    def _claims_folder(self) -> Path:
        """The unfinished games' folder, where their claims are made: one that cannot be used
        leaves every game unclaimable (and unsaved)."""
        try:
            return self.unfinished_dir
        except StorageProblem as problem:
            raise GameUnclaimable(str(problem)) from None

    def open_claimed(self, game_id: str, levels: tuple[str, ...] | list[str] | None = None) -> SavedGame:
        """Claim the game, then read it: the record as it is now that no other copy can change it
        (a list read before may be stale). Raises ``GameInUse``, ``GameUnclaimable`` or
        ``ShelfProblem`` (``GameGone`` among them); the claim is kept only with the game."""
        took = not game_claim.holds(self._claims_folder(), game_id)
        self.claim(game_id)
        try:
            return self.load(game_id, levels)
        except ShelfProblem:
            if took:
                self.release(game_id)
            raise

    def holder(self, game_id: str) -> int | None:
        """The pid of another copy holding the game (0: one holds it, pid unknown), else None."""
        try:
            return game_claim.holder(self.unfinished_dir, game_id)
        except OSError:
            return None

    def release(self, game_id: str) -> None:
        with contextlib.suppress(OSError):
            game_claim.release(self.unfinished_dir, game_id)

    def id_of(self, text: str) -> str | None:
        """The id of the kept game, unfinished or finished, whose record is ``text`` exactly, or None:
        a record saved with Ctrl+S and loaded again, or a finished one loaded twice, is that game,
        not another copy of it. Only records of the same size are read."""
        size = len(text.encode("utf-8"))
        for folder in (self.unfinished_dir, self.finished_dir):
            with contextlib.suppress(FileNotFoundError):
                for record in sorted(folder.glob("*.mbg")):
                    if not _valid_id(record.stem):
                        continue
                    with contextlib.suppress(OSError, UnicodeDecodeError):
                        if record.stat().st_size == size and record.read_text(encoding="utf-8") == text:
                            return record.stem
        return None

    def has(self, game_id: str) -> bool:
        """Whether the game is among the unfinished ones (in a folder that can only be read, too)."""
        try:
            folder, _unwritable = self._unfinished_to_read()
            return (folder / f"{game_id}.mbg").is_file()
        except OSError:
            return False

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: str, levels: tuple[str, ...] | list[str] | None = None) -> SavedGame:
        """One unfinished game; raises ``ShelfProblem`` (corrupt files are set aside first)."""
        problems: list[str] = []
        try:
            folder, _unwritable = self._unfinished_to_read()
        except StorageProblem as problem:
            raise ShelfProblem(str(problem)) from None
        saved = self._read(folder, game_id, levels, problems)
        if saved is None:
            if problems:
                raise ShelfProblem(problems[0])
            raise GameGone(_("this game is no longer unfinished: another copy finished or discarded it"))
        return saved

    def unfinished(self, levels: tuple[str, ...] | list[str] | None = None) -> tuple[list[SavedGame], list[str]]:
        """Every unfinished game, newest first, and what was wrong with the files that did not load.

        Finished games found here (a crash between the last move and ``finish``) move to the
        finished folder; files that do not load are set aside.
        """
        problems: list[str] = []
        try:
            folder, unwritable = self._unfinished_to_read()
            if unwritable is None:
                self._adopt_legacy(problems)
                remove_stray_temporaries(folder)
                remove_stray_temporaries(self.folder)
                game_claim.clear_stale(folder)
            else:
                problems.append(str(unwritable))
            names = sorted(os.listdir(folder))
        except OSError as error:
            return [], [_problem_text(error)]
        games: list[SavedGame] = []
        for name in names:
            if not name.endswith(".mbg") or not _valid_id(name[:-4]):
                continue
            saved = self._read(folder, name[:-4], levels, problems)
            if saved is None:
                continue
            if saved.game.is_over():
                if unwritable is None:
                    self._finish_found(saved)
                continue
            games.append(saved)
        games.sort(key=lambda saved: (saved.saved_at, saved.game_id), reverse=True)
        return games, problems

    def newest_finished(self, levels: tuple[str, ...] | list[str] | None = None) -> SavedGame | None:
        """The last game finished (for a rematch after a restart), or None."""
        try:
            folder = self.finished_dir
            names = [name for name in os.listdir(folder) if name.endswith(".mbg") and _valid_id(name[:-4])]
        except OSError:
            return None
        names.sort(key=lambda name: _mtime(folder / name), reverse=True)
        for name in names[:5]:
            saved = self._read(folder, name[:-4], levels, [])
            if saved is not None:
                return saved
        return None

    def _read(
        self, folder: Path, game_id: str, levels: tuple[str, ...] | list[str] | None, problems: list[str]
    ) -> SavedGame | None:
        record = folder / f"{game_id}.mbg"
        sidecar = folder / f"{game_id}.json"
        if not record.exists():
            return None
        try:
            text = read_text_file(record, record.name)
            game = Game.from_text(text)
        except (TextFileError, BattleError, OSError) as error:
            moved = set_aside(record)
            if sidecar.exists():
                set_aside(sidecar)
            reason = _problem_text(error)
            problems.append(
                _("A saved game could not be read: {reason}. It was moved to {name}.").format(
                    reason=reason, name=moved.name
                )
                if moved
                else _("A saved game could not be read: {reason}.").format(reason=reason)
            )
            return None
        _seen[record] = text
        saved = SavedGame(game_id, game, saved_at=_mtime(record))
        problem = _apply_sidecar(saved, sidecar, levels)
        if problem:
            problems.append(problem)
        return saved

    def _adopt_legacy(self, problems: list[str]) -> None:
        """Take the single autosave files of earlier versions into the list (each once)."""
        base = self.folder
        for record_name, sidecar_name, front_end in LEGACY_RECORDS:
            record = base / record_name
            if not record.is_file():
                continue
            game_id = new_game_id(_mtime(record))
            saved = self._read(base, record_name[:-4], None, problems)
            if saved is None:
                continue
            saved.game_id, saved.front_end = game_id, front_end
            if sidecar_name is None:
                saved.solver_side, saved.level = _solver_in_names(saved.game)
            if saved.game.ply > 0:  # an untouched deal has nothing to keep
                try:
                    with self._holding(game_id):
                        (self.finish if saved.game.is_over() else self.save)(saved)
                except (GameUnclaimable, GameInUse, GameChanged):
                    continue  # no claim here: the old file stays for a later start
            for name in (record_name, sidecar_name, record_name[:-4] + ".json"):
                if name:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(base / name)

    def _finish_found(self, saved: SavedGame) -> None:
        """Move a finished game found among the unfinished ones (a crash between its last move and
        ``finish``) to the finished folder, unless another copy holds it (it finishes it itself)."""
        with contextlib.suppress(OSError, GameInUse, GameUnclaimable, GameChanged), self._holding(saved.game_id):
            self.finish(saved)


class ShelfProblem(Exception):
    """A saved game that could not be read; the message is for the user."""


class GameGone(ShelfProblem):
    """The game is no longer among the unfinished ones: another copy finished or discarded it."""


class GameChanged(Exception):
    """Another copy changed the game since this copy read it (``gone``: finished or discarded it
    there); a write now would put an old line of moves over that copy's. Nothing was written."""

    def __init__(self, *, gone: bool) -> None:
        self.gone = gone
        super().__init__(
            _("this game was finished or discarded in another copy")
            if gone
            else _("this game changed in another copy since it was read here")
        )


def _same_game(text: str, game: Game) -> bool:
    try:
        return Game.from_text(text).to_text() == game.to_text()
    except BattleError:
        return False


def _record_text(record: Path) -> str | None:
    """The record's text as it is on disk, None when there is none (an unreadable one reads as
    its error, which matches no text this copy saw)."""
    if not os.path.lexists(record):
        return None
    try:
        return read_text_file(record, record.name)
    except TextFileError as error:
        return f"\0{error}"


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _problem_text(error: BaseException) -> str:
    return str(error) if isinstance(error, StorageProblem) else error_reason(error)


def _solver_in_names(game: Game) -> tuple[int | None, str | None]:
    """A record remembers the solver by its name, ``Solver (LEVEL)``."""
    for side, name in ((1, game.player1), (2, game.player2)):
        level = solver_level(name)
        if level is not None:
            return side, level
    return None, None


def _apply_sidecar(saved: SavedGame, path: Path, levels: tuple[str, ...] | list[str] | None) -> str | None:
    """Fill in what the sidecar says; a bad sidecar is set aside and the game goes on without it."""
    try:
        raw = read_limited(path, SIDECAR_LIMIT, path.name)
    except FileNotFoundError:
        saved.solver_side, saved.level = _solver_in_names(saved.game)
        return None
    except OSError as error:
        return _bad_sidecar(saved, path, _problem_text(error))
    except TextFileError:
        return _bad_sidecar(saved, path, _("longer than {limit} bytes").format(limit=SIDECAR_LIMIT))
    try:
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError(_("expected a JSON object"))
        side = data.get("solver_side")
        level = data.get("level")
        front_end = data.get("front_end", "window")
        kept = data.get("kept", False)
        from_ply = data.get("from_ply", 0)
        if side not in (None, 1, 2) or isinstance(side, bool):
            raise ValueError(
                _("{field} must be 1, 2 or null, not {value}").format(field="solver_side", value=_short(side))
            )
        if side is not None and (not isinstance(level, str) or (levels is not None and level not in levels)):
            raise ValueError(_("unknown level {level}").format(level=_short(level)))
        if front_end not in FRONT_ENDS:
            raise ValueError(_("unknown {field} {value}").format(field="front_end", value=_short(front_end)))
        if not isinstance(kept, bool):
            raise ValueError(_("{field} must be true or false, not {value}").format(field="kept", value=_short(kept)))
        if not isinstance(from_ply, int) or isinstance(from_ply, bool) or not 0 <= from_ply <= saved.game.ply:
            raise ValueError(
                _("{field} must be a move number up to {last}, not {value}").format(
                    field="from_ply", last=saved.game.ply, value=_short(from_ply)
                )
            )
    except (ValueError, RecursionError, UnicodeDecodeError) as error:
        reason = _("nested too deeply") if isinstance(error, RecursionError) else str(error)
        return _bad_sidecar(saved, path, reason)
    saved.solver_side, saved.level, saved.front_end, saved.kept = side, level, front_end, kept
    saved.from_ply = from_ply
    return None


def _bad_sidecar(saved: SavedGame, path: Path, reason: str) -> str:
    moved = set_aside(path)
    if moved:
        return _(
            "The settings of saved game {game} could not be read: {reason} (moved to {name}); "
            "it goes on as a game between two people."
        ).format(game=saved.game_id, reason=reason, name=moved.name)
    return _(
        "The settings of saved game {game} could not be read: {reason}; it goes on as a game between two people."
    ).format(game=saved.game_id, reason=reason)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
