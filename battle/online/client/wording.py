"""How the Python clients (the terminal and the window) word what the server states as facts:
how a game ended (from the ``result``) and why a message was refused (from the ``error``'s
``code`` and ``params``), in the reader's language through the catalogue. The page has its own
in JavaScript (``battle/web/server_words.js``).

"You" is decided by seat, never by name: a player named "You" is the opponent's "You", not
the reader. Every text is a whole sentence of the catalogue with named placeholders.
"""

from __future__ import annotations

from battle.i18n import _, ngettext
from battle.online.client.state_game import name_of
from battle.online.protocol.messages import ErrorCode
from battle.online.protocol.server_messages import Error, GameResult, ParamValue, State
from battle.rules.game import result_of


def your_seat(state: State | None) -> int | None:
    """The reader's seat, or None for a spectator (or no state yet)."""
    return state.you if state is not None and isinstance(state.you, int) else None


def score_text(result: GameResult, you: int | None) -> str:
    """The scores from the reader's side: their own first; seat order for a spectator."""
    first, second = result.scores
    return f"{second}-{first}" if you == 2 else f"{first}-{second}"


# -- how a game ended ------------------------------------------------------------------------


def unplayed_end(state: State, called_off_here: bool = False) -> str | None:
    """How a game that counts for nothing ended, in a sentence for the player; None for any other.
    ``called_off_here``: this client sent the ``abort`` (the server's result says only "aborted",
    so the player who pressed Abort is told it was them, the other that their opponent did or
    nobody moved in time)."""
    result = state.result
    if result is None or not result.unplayed:
        return None
    if result.reason == "expired":
        return _("Nobody joined in time: the game expired and counts for nothing.")
    if called_off_here:
        return _("You called the game off before its second move: it counts for nothing.")
    if your_seat(state) is not None:
        return _("Your opponent called the game off, or nobody moved in time: it counts for nothing.")
    return _("The game was called off (by a player, or because nobody moved in time); it counts for nothing.")


def end_cause(state: State) -> str | None:
    """How the game ended when not by the rules' end, as a sentence: "Bob resigned.", "You ran out
    of time."; None for the rules' end (no pair left) and for a game still going."""
    result = state.result
    if result is None or result.winner is None or result.reason not in ("resign", "time", "abandoned"):
        return None
    loser = 3 - result.winner
    you = your_seat(state)
    if result.reason == "resign":
        if loser == you:
            return _("You resigned.")
        return _("{name} resigned.").format(name=name_of(state, loser))
    if result.reason == "abandoned":
        if loser == you:
            return _("You did not move for too long: the game was given up for you.")
        return _("{name} did not move for too long and left the game.").format(name=name_of(state, loser))
    if loser == you:
        return _("You ran out of time.")
    return _("{name} ran out of time.").format(name=name_of(state, loser))


def end_sentence(state: State, called_off_here: bool = False) -> str:
    """The end of the game in a sentence: "You resigned; Bob wins, 40-62.", "Bob ran out of time;
    you win, 20-50.", "You win 140-130 (by 10).", "Draw, 135-135.", or how it counted for nothing."""
    result = state.result
    if result is None:
        return _("The game is over.")
    unplayed = unplayed_end(state, called_off_here)
    if unplayed is not None:
        return unplayed
    you = your_seat(state)
    score = score_text(result, you)
    winner = result.winner
    if winner is None:
        return _("Draw, {score}.").format(score=score)
    loser = 3 - winner
    names = {"winner": name_of(state, winner), "loser": name_of(state, loser), "score": score}
    if result.reason == "resign":
        if you == loser:
            return _("You resigned; {winner} wins, {score}.").format(**names)
        if you == winner:
            return _("{loser} resigned; you win, {score}.").format(**names)
        return _("{loser} resigned; {winner} wins, {score}.").format(**names)
    if result.reason == "abandoned":
        if you == loser:
            return _("You did not move for too long; {winner} wins, {score}.").format(**names)
        if you == winner:
            return _("{loser} did not move for too long; you win, {score}.").format(**names)
        return _("{loser} did not move for too long; {winner} wins, {score}.").format(**names)
    if result.reason == "time":
        if you == loser:
            return _("You ran out of time; {winner} wins, {score}.").format(**names)
        if you == winner:
            return _("{loser} ran out of time; you win, {score}.").format(**names)
        return _("{loser} ran out of time; {winner} wins, {score}.").format(**names)
    margin = result_of(list(result.scores)).margin
    if you == winner:
        return _("You win {score} (by {margin}).").format(score=score, margin=margin)
    return _("{name} wins {score} (by {margin}).").format(name=names["winner"], score=score, margin=margin)


# -- why the server refused ------------------------------------------------------------------


def _number(params: dict[str, ParamValue], key: str) -> int:
    value = params.get(key)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _text(params: dict[str, ParamValue], key: str) -> str:
    value = params.get(key)
    return value if isinstance(value, str) else ""


_NOT_ALLOWED = {
    "own_seat": lambda p: _("You hold the other seat of this game already."),
    "abort_late": lambda p: _("A game can be called off only before move {ply}; resign instead.").format(
        ply=_number(p, "ply")
    ),
    "rematch_early": lambda p: _("A rematch can be offered once the game is over."),
    "unplayed": lambda p: _("This game was never played: host a new one."),
    "rematch_declined": lambda p: ngettext(
        "Your opponent turned down a rematch: you can offer again in {count} second.",
        "Your opponent turned down a rematch: you can offer again in {count} seconds.",
        _number(p, "seconds"),
    ).format(count=_number(p, "seconds")),
    "rematch_begun": lambda p: _("The rematch has begun already."),
    "rematch_offered": lambda p: _("You have offered a rematch already."),
    "rematch_waiting": lambda p: _("Your opponent has offered a rematch: accept it."),
    "takeback_not_last": lambda p: _("Only the player who made the last move can ask to take it back."),
    "takeback_asked": lambda p: _("You have asked to take back your move already."),
    "takeback_declined": lambda p: _("Your opponent said no to taking back this move."),
}
"""The ``not_allowed`` refusals, by their ``why``."""


def refusal_text(error: Error, state: State | None = None) -> str:
    """Why the server refused a message, in a sentence in the reader's language (``state`` names
    the seat to move for ``not_your_turn``)."""
    code, params = error.code, error.params
    why = _text(params, "why")
    if code == ErrorCode.NOT_ALLOWED:
        allowed_not = _NOT_ALLOWED.get(why)
        return allowed_not(params) if allowed_not is not None else _("The server does not allow that now.")
    if code == ErrorCode.ILLEGAL_MOVE:
        move = _text(params, "move")
        if why == "illegal" and move:
            return _("{move} is not a legal move here.").format(move=move)
        return _("The server could not read the move {move}.").format(move=move) if move else _("Not a legal move.")
    if code == ErrorCode.NOT_YOUR_TURN:
        seat = _number(params, "seat")
        if state is not None and seat in (1, 2):
            return _("It is not your turn: {name} is to move.").format(name=name_of(state, seat))
        return _("It is not your turn.")
    if code == ErrorCode.NO_OFFER:
        if _text(params, "offer") == "takeback":
            return _("Your opponent has not asked to take back a move.")
        return _("Your opponent has not offered a rematch.")
    if code == ErrorCode.EXPIRED:
        if why == "called_off":
            return _("The host called this game off before anyone joined.")
        return _("This game expired: nobody joined it in time. Host a new one.")
    if code == ErrorCode.NOT_FOUND:
        what = _text(params, "what")
        if what == "join":
            return _("No game has this invite code.")
        if what == "watch":
            return _("No game has this watch code.")
        if what == "link":
            return _("No game has this link; check that it was copied whole.")
        return _("The game is gone from the server.")
    if code == ErrorCode.BUSY:
        count = _number(params, "count")
        if why == "waiting":
            return ngettext(
                "{count} game from your address waits for a second player already: abort it or wait for a friend.",
                "{count} games from your address wait for a second player already: abort one or wait for a friend.",
                count,
            ).format(count=count)
        if why == "games_per_connection":
            return ngettext(
                "One connection may create {count} game: connect again to create more.",
                "One connection may create {count} games: connect again to create more.",
                count,
            ).format(count=count)
        if why == "network_games":
            return ngettext(
                "Your address plays {count} unfinished game already, as many as this server allows: finish it first.",
                "Your address plays {count} unfinished games already, as many as this server allows: finish one first.",
                count,
            ).format(count=count)
        if why == "solver_games":
            return ngettext(
                "Your address plays {count} unfinished game against the solver already, as many as this "
                "server allows: finish it first.",
                "Your address plays {count} unfinished games against the solver already, as many as this "
                "server allows: finish one first.",
                count,
            ).format(count=count)
        if why == "starts":
            seconds = _number(params, "seconds")
            return ngettext(
                "Your address starts games faster than this server allows: try again in {count} second.",
                "Your address starts games faster than this server allows: try again in {count} seconds.",
                seconds,
            ).format(count=seconds)
        if why == "unreachable":
            return {
                "lobby": _("The part of the server that holds the lobby does not answer now: try again in a moment."),
                "solver": _("The part of the server that runs the solver does not answer now: try again in a moment."),
            }.get(
                str(params.get("what")),
                _("The part of the server that holds this game does not answer now: try again in a moment."),
            )
        if why == "directory":
            seconds = _number(params, "seconds")
            return ngettext(
                "The site's game directory does not answer: try again in {count} second.",
                "The site's game directory does not answer: try again in {count} seconds.",
                seconds,
            ).format(count=seconds)
        return _("The server has as many games as it can hold; try again later.")
    if code == ErrorCode.FULL:
        if why == "spectators":
            return _("As many people as the server allows watch this game already; try again later.")
        return _("Both seats of this game are taken.")
    if code == ErrorCode.BAD_MESSAGE and why == "solver_name":
        return _("That name reads as the solver's, which no person may take: choose another name.")
    if code == ErrorCode.VERSION:
        return _("The server speaks another version of the online protocol: use the same version of the game there.")
    simple = {
        ErrorCode.OUT_OF_TIME: _("The time for this move ran out."),
        ErrorCode.ID_REUSED: _("The server had another move under that move's id."),
        ErrorCode.GAME_OVER: _("The game is over."),
        ErrorCode.NOT_STARTED: _("The game waits for its second player."),
        ErrorCode.NOT_A_PLAYER: _("You watch this game: only its players can do that."),
        ErrorCode.BAD_TOKEN: _("The server has no seat for this game's token (a token from another server?)."),
        ErrorCode.RATE_LIMITED: _("Too many messages or wrong codes: wait a moment and try again."),
        ErrorCode.DAMAGED: _("The server could not load that game: its record there is damaged."),
        ErrorCode.INTERNAL: _("The server could not save that; nothing changed. Try again."),
    }
    plain = simple.get(code)
    if plain is not None:
        return plain
    return _("The server could not read a message from this program ({code}).").format(code=code.value)
