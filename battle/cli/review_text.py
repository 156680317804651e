"""A game review as text: the annotated record, the players' figures, the turning points.

What ``mahjong-battle review`` and the terminal game's ``review`` print. The solver
grades the moves and owns the figures (``battle.players.review``); the command line words
them, so a change of wording never touches the grading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.i18n import _, format_number
from battle.players import CLASS_NAMES, MoveReview, PlayerSummary, TurningPoint
from battle.rules.wording import grade_word, mention, plural, shown_name, verb

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
            _("Turning points (projected margin for {mention}):").format(mention=mention(names[0], start=False))
        )
        lines += [_format_turning_point(point, names) for point in turning]
    else:
        lines.append(_("Turning points: none (no lead change, no mistake or blunder)"))
    return "\n".join(lines) + "\n"


def _heading(review: Review, names: tuple[str, str]) -> str:
    origin = _("deal {deal}").format(deal=review.deal) if review.deal is not None else _("a composed layout")
    budget = (
        _("no limit")
        if review.nodes_per_move is None
        else _("up to {nodes} nodes per move").format(nodes=format_number(review.nodes_per_move))
    )
    first = names[review.start_to_move - 1]
    second = names[2 - review.start_to_move]
    exact = "" if review.eval_start_exact else _(" (estimate)")
    return _(
        "Review of {names} vs {names2}, from {origin}: {plural}, {budget}\n{verb} the odd-numbered moves, {mention} "
        "the even ones. Projected margin for {mention2} at the start: {signed}{exact}\nEach move: value (final "
        "margin it leads to for the mover), loss against the best move, class; ~ marks an estimate"
    ).format(
        names=shown_name(names[0]),
        names2=shown_name(names[1]),
        origin=origin,
        plural=plural(review.moves_in_record, "move"),
        budget=budget,
        verb=verb(first, "plays"),
        mention=mention(second, start=False),
        mention2=mention(names[0], start=False),
        signed=_signed(review.eval_start),
        exact=exact,
    )


def _outcome(review: Review, names: tuple[str, str]) -> str:
    if not review.complete:
        return _(
            "Review stopped after move {len} of {moves_in_record}; projected margin for {mention} then: {signed}"
        ).format(
            len=len(review.moves),
            moves_in_record=review.moves_in_record,
            mention=mention(names[0], start=False),
            signed=_signed(review.evals[-1]),
        )
    result = review.result
    if result is not None:
        return _("Result: {what}").format(what=result.describe(names))
    exact = "" if review.final_exact else _(" (estimate)")
    return _(
        "Unfinished at {final_scores}-{final_scores2}; projected margin for {mention} under perfect play: "
        "{signed}{exact}"
    ).format(
        final_scores=review.final_scores[0],
        final_scores2=review.final_scores[1],
        mention=mention(names[0], start=False),
        signed=_signed(review.evals[-1]),
        exact=exact,
    )


def _approx(move: MoveReview) -> str:
    return "" if move.exact else "~"


def _best_text(best_moves: tuple[str, ...], best_value: int, approx: str = "") -> str:
    shown = ", ".join(best_moves[:3])
    more = _(" +{value} more").format(value=len(best_moves) - 3) if len(best_moves) > 3 else ""
    return f"{shown}{more} ({approx}{_signed(best_value)})"


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

    def number(value: float | None, suffix: str = "", digits: int = 2) -> str:
        return "-" if value is None else f"{value:.{digits}f}{suffix}"

    one, two = summary
    lines = [
        row("", shown_name(names[0])[:20], shown_name(names[1])[:20]),
        row(_("moves"), str(one.moves), str(two.moves)),
    ]
    lines += [row(grade_word(name), str(one.counts[name]), str(two.counts[name])) for name in CLASS_NAMES]
    lines.append(row(_("points lost"), str(one.points_lost), str(two.points_lost)))
    lines.append(row(_("average loss"), number(one.average_loss), number(two.average_loss)))
    lines.append(row(_("accuracy"), number(one.accuracy, "%", 1), number(two.accuracy, "%", 1)))
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
