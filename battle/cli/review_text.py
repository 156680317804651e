"""A game review as text: the annotated record, the players' figures, the turning points.

What ``mahjong-battle review`` and the terminal game's ``review`` print. The solver
grades the moves and owns the figures (``battle.players.review``); the command line words
them, so a change of wording never touches the grading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.i18n import _, format_number, format_percent, ngettext
from battle.players import CLASS_NAMES, MoveReview, PlayerSummary, TurningPoint
from battle.rules.wording import about, grade_word, shown_name

if TYPE_CHECKING:
    from battle.players import Review


def _signed(value: int) -> str:
    """A value with its sign, except 0 (which favours nobody)."""
    return f"{value:+d}" if value else "0"


def format_review(review: Review, names: tuple[str, str]) -> str:
    """The annotated record, then the summary table and the turning points."""
    lines = [_heading(review, names), ""]
    lines += [_format_move(move) for move in review.moves]
    if not review.moves:
        lines.append(_("(no moves to review)"))
    lines.append("")
    lines.append(_outcome(review, names))
    lines.append("")
    lines += _format_summary(review.summary(), names)
    turning = review.turning_points()
    lines.append("")
    if turning:
        lines.append(
            about(
                names[0],
                _("Turning points (projected margin for you):"),
                _("Turning points (projected margin for {name}):"),
            )
        )
        lines += [_format_turning_point(point, names) for point in turning]
    else:
        lines.append(_("Turning points: none (no lead change, no mistake or blunder)"))
    return "\n".join(lines) + "\n"


def _heading(review: Review, names: tuple[str, str]) -> str:
    """Three lines: who played what from where, who moved first and the margin at the start, the key."""
    players = {"player1": shown_name(names[0]), "player2": shown_name(names[1]), "count": review.moves_in_record}
    if review.deal is not None:
        what = ngettext(
            "Review of {player1} vs {player2}, from deal {deal}: {count} move.",
            "Review of {player1} vs {player2}, from deal {deal}: {count} moves.",
            review.moves_in_record,
        ).format(deal=review.deal, **players)
    else:
        what = ngettext(
            "Review of {player1} vs {player2}, from a composed layout: {count} move.",
            "Review of {player1} vs {player2}, from a composed layout: {count} moves.",
            review.moves_in_record,
        ).format(**players)
    budget = (
        _("Search per move: no limit.")
        if review.nodes_per_move is None
        else _("Search per move: up to {nodes} nodes.").format(nodes=format_number(review.nodes_per_move))
    )
    first = names[review.start_to_move - 1]
    second = names[2 - review.start_to_move]
    order = _("Odd-numbered moves: {first}; even-numbered moves: {second}.").format(
        first=shown_name(first), second=shown_name(second)
    )
    start = about(
        names[0],
        _("Projected margin for you at the start: {value}."),
        _("Projected margin for {name} at the start: {value}."),
        value=_margin_value(review.eval_start, review.eval_start_exact),
    )
    key = _(
        "Each move: value (final margin it leads to for the mover), loss against the best move, class; "
        "~ marks an estimate."
    )
    return f"{what} {budget}\n{order} {start}\n{key}"


def _margin_value(value: int, exact: bool) -> str:
    """A projected margin: ``+5``, or ``+5 (estimate)`` when the search did not reach the end."""
    return _signed(value) if exact else _("{value} (estimate)").format(value=_signed(value))


def _outcome(review: Review, names: tuple[str, str]) -> str:
    if not review.complete:
        return about(
            names[0],
            _("Review stopped after move {number} of {count}; projected margin for you then: {value}"),
            _("Review stopped after move {number} of {count}; projected margin for {name} then: {value}"),
            number=len(review.moves),
            count=review.moves_in_record,
            value=_signed(review.evals[-1]),
        )
    result = review.result
    if result is not None:
        return _("Result: {what}").format(what=result.describe(names))
    return about(
        names[0],
        _("Unfinished at {score}; projected margin for you under perfect play: {value}"),
        _("Unfinished at {score}; projected margin for {name} under perfect play: {value}"),
        score=f"{review.final_scores[0]}-{review.final_scores[1]}",
        value=_margin_value(review.evals[-1], review.final_exact),
    )


def _approx(move: MoveReview) -> str:
    return "" if move.exact else "~"


def _best_text(best_moves: tuple[str, ...], best_value: int, approx: str = "") -> str:
    """The best moves (three at most) and their value: ``c1-c9, d1-d9 +2 more (~+3)``."""
    shown, value = ", ".join(best_moves[:3]), f"{approx}{_signed(best_value)}"
    if len(best_moves) <= 3:
        return f"{shown} ({value})"
    return _("{moves} +{count} more ({value})").format(moves=shown, count=len(best_moves) - 3, value=value)


def _format_move(move: MoveReview) -> str:
    approx = _approx(move)
    value = f"{approx}{_signed(move.value)}"
    loss = f"{approx}{move.loss}"
    text = _("{number:>3}. {move} ({points})  value {value:<4} loss {loss:<3} {classification}").format(
        number=move.number,
        move=move.move,
        points=move.points,
        value=value,
        loss=loss,
        classification=grade_word(move.classification),
    )
    if move.loss > 0:
        text = _("{text:<50} best: {best_text}").format(
            text=text, best_text=_best_text(move.best_moves, move.best_value, approx)
        )
    if not move.exact:
        text += _("  [depth {depth}, not exact]").format(depth=move.depth)
    return text.rstrip()


def _format_summary(summary: tuple[PlayerSummary, PlayerSummary], names: tuple[str, str]) -> list[str]:
    width = max(8, *(min(len(shown_name(name)), 20) for name in names)) + 2
    label = 14

    def row(title: str, first: str, second: str) -> str:
        return f"{title:<{label}}{first:>{width}}{second:>{width}}"

    def number(value: float | None) -> str:
        return "-" if value is None else format_number(value, 2)

    def share(value: float | None) -> str:
        return "-" if value is None else format_percent(value)

    one, two = summary
    lines = [
        row("", shown_name(names[0])[:20], shown_name(names[1])[:20]),
        row(_("moves"), str(one.moves), str(two.moves)),
    ]
    lines += [row(grade_word(name), str(one.counts[name]), str(two.counts[name])) for name in CLASS_NAMES]
    lines.append(row(_("points lost"), str(one.points_lost), str(two.points_lost)))
    lines.append(row(_("average loss"), number(one.average_loss), number(two.average_loss)))
    lines.append(row(_("accuracy"), share(one.accuracy), share(two.accuracy)))
    if one.inexact_moves or two.inexact_moves:
        lines.append(row(_("not exact"), str(one.inexact_moves), str(two.inexact_moves)))
    lines.append("")
    lines.append(_("accuracy = moves classed best / moves x 100; average loss = points lost / moves"))
    lines.append(_("classes by loss: best 0, good 1-2, inaccuracy 3-5, mistake 6-9, blunder 10+"))
    return lines


def _format_turning_point(point: TurningPoint, names: tuple[str, str]) -> str:
    why = ", ".join(_("lead change") if reason == "lead_change" else grade_word(reason) for reason in point.reasons)
    best = (
        _("  best: {best_text}").format(best_text=_best_text(point.best_moves, point.best_value))
        if point.loss > 0
        else ""
    )
    return _("{number:>3}. {names}: {move}  loss {loss}  ({why})  {signed} -> {signed2}{best}").format(
        number=point.number,
        names=shown_name(names[point.player - 1]),
        move=point.move,
        loss=point.loss,
        why=why,
        signed=_signed(point.eval_before),
        signed2=_signed(point.eval_after),
        best=best,
    )
