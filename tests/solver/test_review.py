"""Game review (``battle.players.review``, ``mahjong-battle review``, the evaluation graph).

Every figure of a review of a small game is checked against the slow, obviously
correct ``tests/naive.py``: the loss and class of each move, the projected margin
before and after it, the summary. Small games are numbered deals played down by
seeded random moves to about 20 tiles and written as ``layout:`` records, so
they exercise nonzero start scores and either player to move.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battle.cli import main  # noqa: E402
from battle.cli.review_text import format_review  # noqa: E402
from battle.players.review import review_game  # noqa: E402
from battle.players.review_report import (  # noqa: E402
    CLASS_NAMES,
    MoveReview,
    MoveReviewJSON,
    PlayerSummaryJSON,
    Review,
    ReviewFinalJSON,
    ReviewJSON,
    ReviewStartJSON,
    ReviewStep,
    TurningPointJSON,
    classify,
)
from battle.rules.board import Move, Position, move_name, parse_move  # noqa: E402
from battle.rules.deal import deal  # noqa: E402
from battle.rules.game import Game  # noqa: E402
from battle.rules.notation import Record, format_record, parse_record  # noqa: E402
from battle.ui.art import theme  # noqa: E402
from battle.ui.widgets.eval_graph import draw_eval_graph, render_eval_graph, save_eval_graph  # noqa: E402
from solver.engine import FULL_DEPTH, Engine  # noqa: E402
from tests import naive  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAX_TILES = 20
SOLVE = ("--time", "60", "--hash", "32")
"""Command options for small games: time enough to solve every move, a small table."""


# -- games ------------------------------------------------------------------------------------


def played_down(seed: int, max_tiles: int = MAX_TILES) -> Position:
    """A numbered deal played by seeded random moves down to ``max_tiles``, not yet over."""
    rng = random.Random(seed)
    while True:
        position = deal(rng.randrange(1 << 32))
        while position.tiles_left() > max_tiles and not position.is_over():
            position.push(rng.choice(position.legal_moves()))
        if position.tiles_left() <= max_tiles and not position.is_over():
            return position.copy()


def as_record(start: Position, moves: list[Move]) -> Record:
    """The game written as a ``layout:`` record and read back, as a file would be."""
    text = format_record(Record("Alice", "Bob", None, start.copy(), list(moves)))
    assert "layout:" in text
    return parse_record(text)


def p1_margin(position: Position) -> int:
    """Naive projected final margin for player 1."""
    value = naive.value(position.copy())
    return position.scores[0] - position.scores[1] + (value if position.to_move == 1 else -value)


def naive_losses(record: Record) -> list[int]:
    position = record.start.copy()
    losses = []
    for move in record.moves:
        values = naive.move_values(position.copy())
        losses.append(max(values.values()) - values[move])
        position.push(move)
    return losses


def naive_evals(record: Record) -> list[int]:
    position = record.start.copy()
    evals = [p1_margin(position)]
    for move in record.moves:
        position.push(move)
        evals.append(p1_margin(position))
    return evals


def blunder_game() -> tuple[Record, int, int]:
    """A small game whose second move is a blunder: (record, its index, its exact loss).

    The first position (in seed order) with a move losing 10 or more after a
    best first move; the rest of the game is seeded random moves, so it holds
    the usual mix of classes.
    """
    for seed in range(200):
        start = played_down(seed)
        position = start.copy()
        first = naive.best_moves(position.copy())[1][0]
        position.push(first)
        if position.is_over():
            continue
        values = naive.move_values(position.copy())
        best = max(values.values())
        worst = min(values, key=lambda move: (values[move], move))
        if best - values[worst] < 10:
            continue
        moves = [first, worst]
        position.push(worst)
        rng = random.Random(seed)
        while not position.is_over():
            move = rng.choice(position.legal_moves())
            moves.append(move)
            position.push(move)
        return as_record(start, moves), 1, best - values[worst]
    raise AssertionError("no small position with a blunder among 200 seeds")


@pytest.fixture(scope="module")
def engine() -> Engine:
    """One warmed engine for the module: the kernels load (or compile) only once."""
    engine = Engine(table_bits=18)
    engine.search(played_down(0), all_exact=True)
    return engine


@pytest.fixture(scope="module")
def best_game(engine: Engine) -> Record:
    """A small game in which every move is a best move (the solver's, checked by naive)."""
    start = played_down(11)
    position = start.copy()
    moves = []
    while not position.is_over():
        chosen = engine.search(position.copy()).best_moves[0]
        assert chosen in naive.best_moves(position.copy())[1]
        moves.append(chosen)
        position.push(chosen)
    assert len(moves) >= 5
    return as_record(start, moves)


@pytest.fixture(scope="module")
def blunder() -> tuple[Record, int, int]:
    return blunder_game()


@pytest.fixture(scope="module")
def blunder_review(engine: Engine, blunder: tuple[Record, int, int]) -> Review:
    return review_game(blunder[0], time_per_move=None, engine=engine)


def write(tmp_path: Path, record: Record, name: str = "game.mbg") -> Path:
    path = tmp_path / name
    path.write_text(format_record(record), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- classes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loss", "name"),
    [
        (0, "best"),
        (1, "good"),
        (2, "good"),
        (3, "inaccuracy"),
        (5, "inaccuracy"),
        (6, "mistake"),
        (9, "mistake"),
        (10, "blunder"),
        (40, "blunder"),
    ],
)
def test_classes_follow_the_documented_thresholds(loss: int, name: str) -> None:
    assert classify(loss) == name


# -- the review against naive -----------------------------------------------------------------


def test_a_game_of_best_moves_loses_nothing(engine: Engine, best_game: Record) -> None:
    review = review_game(best_game, time_per_move=None, engine=engine)
    assert review.complete and review.exact and review.final_over
    assert [move.loss for move in review.moves] == [0] * len(best_game.moves)
    assert {move.classification for move in review.moves} == {"best"}
    assert all(move.depth == FULL_DEPTH and move.bound == "exact" for move in review.moves)
    # Perfect play keeps the projected margin where it started, up to the final score.
    final = best_game.final_position()
    assert set(review.evals) == {p1_margin(best_game.start)} == {final.scores[0] - final.scores[1]}
    for summary in review.summary():
        assert summary.points_lost == 0
        assert summary.accuracy == 100.0
        assert summary.average_loss == 0.0
        assert summary.counts["best"] == summary.moves
    assert review.turning_points() == []


def test_the_blunder_is_found_with_its_exact_loss(blunder: tuple[Record, int, int], blunder_review: Review) -> None:
    record, index, loss = blunder
    move = blunder_review.moves[index]
    assert move.move == move_name(record.moves[index])
    assert (move.loss, move.classification, move.exact) == (loss, "blunder", True)
    assert move.number in [point.number for point in blunder_review.turning_points()]
    assert set(move.best_moves).isdisjoint({move.move})


def test_every_move_is_graded_as_naive_says(blunder: tuple[Record, int, int], blunder_review: Review) -> None:
    record = blunder[0]
    expected = naive_losses(record)
    assert [move.loss for move in blunder_review.moves] == expected
    assert [move.classification for move in blunder_review.moves] == [classify(loss) for loss in expected]
    position = record.start.copy()
    for move, reviewed in zip(record.moves, blunder_review.moves, strict=True):
        values = naive.move_values(position.copy())
        best = max(values.values())
        assert reviewed.player == position.to_move
        assert reviewed.points == position.move_points(move)
        assert (reviewed.value, reviewed.best_value) == (values[move], best)
        assert list(reviewed.best_moves) == sorted(move_name(m) for m, v in values.items() if v == best)
        position.push(move)


def test_the_evaluation_graph_matches_naive(blunder: tuple[Record, int, int], blunder_review: Review) -> None:
    record = blunder[0]
    assert blunder_review.evals == naive_evals(record)
    assert all(blunder_review.evals_exact)
    final = record.final_position()
    assert blunder_review.evals[-1] == final.scores[0] - final.scores[1]
    for move in blunder_review.moves:
        # A move moves the margin against its player by exactly its loss.
        change = move.eval_after - move.eval_before
        assert change == (-move.loss if move.player == 1 else move.loss)


def test_summary_totals_add_up(blunder_review: Review) -> None:
    first, second = blunder_review.summary()
    moves = blunder_review.moves
    assert first.moves + second.moves == len(moves)
    assert first.points_lost + second.points_lost == sum(move.loss for move in moves)
    for summary in (first, second):
        mine = [move for move in moves if move.player == summary.player]
        assert sum(summary.counts.values()) == summary.moves == len(mine)
        assert list(summary.counts) == list(CLASS_NAMES)
        assert summary.points_lost == sum(move.loss for move in mine)
        assert summary.accuracy == pytest.approx(100 * sum(m.loss == 0 for m in mine) / len(mine))
        assert summary.average_loss == pytest.approx(summary.points_lost / len(mine))


def test_turning_points_are_lead_changes_and_big_losses(blunder_review: Review) -> None:
    def sign(value: int) -> int:
        return (value > 0) - (value < 0)

    expected = [
        move.number
        for move in blunder_review.moves
        if move.loss >= 6 or sign(move.eval_before) != sign(move.eval_after)
    ]
    assert [point.number for point in blunder_review.turning_points()] == expected


def test_json_round_trips(blunder_review: Review) -> None:
    data = blunder_review.to_json()
    text = json.dumps(data)
    assert json.loads(text) == data
    again = Review.from_json(json.loads(text))
    assert again.to_json() == data
    assert format_review(again, again.names) == format_review(blunder_review, blunder_review.names)
    assert data["eval"] == blunder_review.evals
    assert [move["class"] for move in data["moves"]] == [m.classification for m in blunder_review.moves]
    assert data["classes"] == {"best": 0, "good": 1, "inaccuracy": 3, "mistake": 6, "blunder": 10}
    assert data["summary"][0]["player"] == 1 and data["summary"][1]["player"] == 2


def test_a_review_from_json_rejects_other_data() -> None:
    with pytest.raises(ValueError, match="not a version 1 game review"):
        Review.from_json({"format": "something else"})


def test_the_text_is_an_annotated_record(blunder: tuple[Record, int, int], blunder_review: Review) -> None:
    text = format_review(blunder_review, blunder_review.names)
    move = blunder_review.moves[blunder[1]]
    line = next(line for line in text.splitlines() if line.lstrip().startswith(f"{move.number}. {move.move}"))
    assert f"({move.points})" in line and f"loss {move.loss}" in line and "blunder" in line
    assert f"best: {move.best_moves[0]}" in line
    assert "Result: " in text and "accuracy" in text and "Turning points" in text


def test_a_game_object_reviews_like_its_record(engine: Engine, best_game: Record) -> None:
    game = Game.from_record(best_game)
    from_game = review_game(game, time_per_move=None, engine=engine).to_json()
    from_record = review_game(best_game, time_per_move=None, engine=engine).to_json()
    for data in (from_game, from_record):
        for move in data["moves"]:
            move.pop("nodes"), move.pop("seconds")
    assert from_game == from_record


def test_an_unfinished_game_is_projected_to_the_end(engine: Engine, blunder: tuple[Record, int, int]) -> None:
    record = blunder[0]
    short = as_record(record.start, record.moves[:3])
    review = review_game(short, time_per_move=None, engine=engine)
    assert not review.final_over and review.result is None
    assert review.evals == naive_evals(short)
    assert "Unfinished at" in format_review(review, review.names)


def test_a_record_without_moves_still_has_a_start_value(engine: Engine, blunder: tuple[Record, int, int]) -> None:
    record = as_record(blunder[0].start, [])
    review = review_game(record, time_per_move=None, engine=engine)
    assert review.moves == [] and review.complete
    assert review.evals == [p1_margin(record.start)]
    assert "(no moves to review)" in format_review(review, review.names)


def test_progress_is_reported_and_a_stop_ends_the_review_early(
    engine: Engine, blunder: tuple[Record, int, int]
) -> None:
    record = blunder[0]
    steps: list[ReviewStep] = []
    review = review_game(
        record, time_per_move=None, engine=engine, progress=steps.append, should_stop=lambda: len(steps) >= 3
    )
    assert [step.number for step in steps] == [1, 2, 3]
    assert all(step.total == len(record.moves) for step in steps)
    assert len(review.moves) == 3 and not review.complete
    # The margin after the last reviewed move comes from that move's own value.
    assert review.evals == naive_evals(record)[:4]
    assert "Review stopped after move 3" in format_review(review, review.names)
    assert review.to_json()["complete"] is False


def test_a_finished_review_reports_every_move(engine: Engine, best_game: Record) -> None:
    steps: list[ReviewStep] = []
    review_game(best_game, time_per_move=None, engine=engine, progress=steps.append)
    assert [step.number for step in steps] == list(range(1, len(best_game.moves) + 1))
    assert [step.move for step in steps] == [move_name(move) for move in best_game.moves]


def test_a_review_needs_a_game() -> None:
    with pytest.raises(TypeError, match="Game or a Record"):
        review_game("1. c1-c9", engine=Engine(table_bits=10))  # type: ignore[arg-type]


# -- a known start: a catalogued deal's par ---------------------------------------------------------

DEAL_1_PAR = (4, (parse_move("a1-i9"),))
"""The shipped catalogue's deal 1: +4 for the first player, a1-i9 its one best first move (290 s to prove)."""


def opening_of_deal_1(first: Move) -> Game:
    game = Game.new(1, "Alice", "Bob")
    game.play(first)
    game.play(game.position.legal_moves()[0])
    return game


def test_a_known_start_grades_a_best_first_move_exactly() -> None:
    game = opening_of_deal_1(DEAL_1_PAR[1][0])
    plain = review_game(game, time_per_move=0.05, engine=Engine(table_bits=16))
    assert not plain.moves[0].exact and not plain.eval_start_exact  # a twentieth of a second proves nothing here
    steps: list[ReviewStep] = []
    review = review_game(
        game, time_per_move=0.05, engine=Engine(table_bits=16), progress=steps.append, known_start=DEAL_1_PAR
    )
    first = review.moves[0]
    assert (first.exact, first.bound, first.loss, first.classification, first.depth) == (
        True,
        "exact",
        0,
        "best",
        FULL_DEPTH,
    )
    assert (first.value, first.best_value, first.best_moves) == (4, 4, ("a1-i9",))
    # the margin stays at par through a best move, so the graph's first two points are exact
    assert (review.eval_start, review.eval_start_exact) == (4, True)
    assert (first.eval_before, first.eval_after, first.eval_after_exact) == (4, 4, True)
    assert review.moves[1].eval_before == 4 and not review.moves[1].exact
    assert steps[0].exact and steps[0].loss == 0
    assert Review.from_json(json.loads(json.dumps(review.to_json()))).moves[0].to_json() == first.to_json()


def test_a_known_start_gives_another_first_move_an_exact_best_value() -> None:
    other = next(move for move in deal(1).legal_moves() if move not in DEAL_1_PAR[1])
    review = review_game(
        opening_of_deal_1(other), time_per_move=0.05, engine=Engine(table_bits=16), known_start=DEAL_1_PAR
    )
    first = review.moves[0]
    assert (first.best_value, first.best_moves, first.eval_before) == (4, ("a1-i9",), 4)
    assert review.eval_start_exact and not first.exact and not first.eval_after_exact
    assert first.loss >= 1  # the best moves known are all of them: any other loses a point at least
    assert first.loss == max(1, 4 - first.value)


def test_a_known_start_agrees_with_the_exact_review(
    engine: Engine, blunder: tuple[Record, int, int], blunder_review: Review
) -> None:
    record = blunder[0]
    value, best = naive.best_moves(record.start.copy())
    known = review_game(record, time_per_move=0.001, engine=Engine(table_bits=12), known_start=(value, tuple(best)))
    for graded, exact in zip(known.moves[:1], blunder_review.moves[:1], strict=True):
        assert {**graded.to_json(), "nodes": 0, "seconds": 0} == {**exact.to_json(), "nodes": 0, "seconds": 0}
    assert known.evals[:2] == blunder_review.evals[:2] and known.evals_exact[:2] == [True, True]
    only_start = review_game(
        as_record(record.start, []), time_per_move=0.001, engine=Engine(table_bits=12), known_start=(value, tuple(best))
    )
    assert (only_start.eval_start, only_start.eval_start_exact) == (p1_margin(record.start), True)


# -- the evaluation graph ---------------------------------------------------------------------


def made_up_review(evals: list[int], classes: list[str] | None = None) -> Review:
    """A review with the given margins, built by hand: the graph needs no engine."""
    classes = classes or ["best"] * (len(evals) - 1)
    moves = [
        MoveReview(
            number=index + 1,
            player=1 + index % 2,
            move="a1-a2",
            points=5,
            value=0,
            bound="exact",
            best_value=0,
            best_moves=("a1-a2",),
            loss=0,
            classification=classes[index],
            exact=True,
            depth=FULL_DEPTH,
            eval_before=evals[index],
            eval_after=evals[index + 1],
            eval_after_exact=True,
        )
        for index in range(len(evals) - 1)
    ]
    return Review(
        names=("Alice", "Bob"),
        deal=7,
        start_to_move=1,
        start_scores=(0, 0),
        time_per_move=1.0,
        moves_in_record=len(moves),
        eval_start=evals[0],
        eval_start_exact=True,
        moves=moves,
        final_scores=(140, 130),
        final_over=True,
    )


def is_tinted(colour: pygame.Color, towards: tuple[int, int, int]) -> bool:
    """Whether a pixel leans towards a player colour (red for 1, blue for 2) more than the other."""
    other = theme.PLAYER_COLOURS[1] if towards == theme.PLAYER_COLOURS[0] else theme.PLAYER_COLOURS[0]
    pixel = (colour.r, colour.g, colour.b)
    towards_score = sum(a * b for a, b in zip(pixel, towards, strict=True))
    return towards_score > sum(a * b for a, b in zip(pixel, other, strict=True))


def test_the_graph_shades_each_players_lead_in_their_colour() -> None:
    review = made_up_review([20] * 11 + [-20] * 10)
    surface = render_eval_graph(review, size=(900, 360))
    assert surface.get_size() == (900, 360)
    # Sample between the zero line and the curve, a quarter and three quarters along.
    width, height = surface.get_size()
    column_lead, column_trail = width * 3 // 10, width * 8 // 10
    red_pixels = [surface.get_at((column_lead, y)) for y in range(height)]
    blue_pixels = [surface.get_at((column_trail, y)) for y in range(height)]
    assert sum(is_tinted(pixel, theme.PLAYER_COLOURS[0]) and pixel.r > 70 for pixel in red_pixels) > 40
    assert sum(is_tinted(pixel, theme.PLAYER_COLOURS[1]) and pixel.b > 70 for pixel in blue_pixels) > 40


def test_the_curve_never_runs_through_whose_lead_a_side_is() -> None:
    """A game the second player leads by 70 from the start: the curve begins in the bottom-left corner,
    where "Bob ahead" stands; the words keep a patch of the plot's ground, so no curve pixel is in it."""
    picture = draw_eval_graph(made_up_review([-70] * 6 + [-40, -20, 0, 10]), size=(900, 360))
    bottom = max(picture.texts[:2], key=lambda rect: rect.bottom)  # the second player's side, at the bottom
    scale = picture.surface.get_width() / 900
    inside = bottom.inflate(-round(4 * scale), -round(4 * scale))
    curve = [
        (x, y)
        for x in range(inside.left, inside.right)
        for y in range(inside.top, inside.bottom)
        if min(picture.surface.get_at((x, y))[:3]) > 200  # the ivory curve (the words are blue)
    ]
    assert curve == [], curve[:5]


@pytest.mark.parametrize("evals", [[0], [0, 0, 0], [5], [150, 140, -160]])
def test_the_graph_survives_odd_reviews(evals: list[int]) -> None:
    surface = render_eval_graph(made_up_review(evals, ["blunder"] * (len(evals) - 1)), size=(400, 180))
    assert surface.get_size() == (400, 180)


def test_the_graph_is_saved_as_png(tmp_path: Path, blunder_review: Review) -> None:
    path = tmp_path / "graph.png"
    save_eval_graph(blunder_review, path, size=(640, 260))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pygame.image.load(str(path)).get_size() == (640, 260)


# -- the command ------------------------------------------------------------------------------


def test_review_prints_the_annotated_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blunder: tuple[Record, int, int], blunder_review: Review
) -> None:
    path = write(tmp_path, blunder[0])
    code, out, err = run(capsys, "review", str(path), *SOLVE)
    assert code == 0, err
    # The same text as the review without a time limit, after the heading (which names the budget).
    assert out.split("\n\n", 1)[1] == format_review(blunder_review, blunder_review.names).split("\n\n", 1)[1]
    assert "Search per move: up to 60,000,000 nodes." in out.splitlines()[0]
    assert f"move 1/{len(blunder[0].moves)}" in err.splitlines()[0]
    assert len(err.splitlines()) == len(blunder[0].moves)


def test_review_quiet_prints_no_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blunder: tuple[Record, int, int]
) -> None:
    code, _, err = run(capsys, "review", str(write(tmp_path, blunder[0])), "--quiet", *SOLVE)
    assert (code, err) == (0, "")


def test_review_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blunder: tuple[Record, int, int], blunder_review: Review
) -> None:
    code, out, _ = run(capsys, "review", str(write(tmp_path, blunder[0])), "--json", "--quiet", *SOLVE)
    assert code == 0
    data = json.loads(out)
    assert list(data) == list(ReviewJSON.__annotations__)  # the type says what the output is
    assert list(data["start"]) == list(ReviewStartJSON.__annotations__)
    assert list(data["final"]) == list(ReviewFinalJSON.__annotations__)
    assert all(list(move) == list(MoveReviewJSON.__annotations__) for move in data["moves"])
    assert all(list(player) == list(PlayerSummaryJSON.__annotations__) for player in data["summary"])
    assert all(list(point) == list(TurningPointJSON.__annotations__) for point in data["turning_points"])
    assert data["eval"] == blunder_review.evals
    assert [move["loss"] for move in data["moves"]] == [move.loss for move in blunder_review.moves]
    assert data["time_per_move"] == 60.0


def test_review_plot_writes_a_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blunder: tuple[Record, int, int]
) -> None:
    plot = tmp_path / "eval.png"
    code, out, err = run(capsys, "review", str(write(tmp_path, blunder[0])), "--plot", str(plot), *SOLVE)
    assert code == 0, err
    assert "Result:" in out and f"written to {plot}" in err
    assert pygame.image.load(str(plot)).get_size() == (900, 360)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "No such file"),
        ("to-move: 1\nscore: 0 0\n" + ".. " * 12 + "\n" * 9, "not a game record"),
        ("player1: A\nplayer2: B\ndeal: 5\n1. a1-a2 (3)\n", "move 1"),
        ("player1: A\ndeal: banana\n", "line 2"),
        (b"\xff\xfe junk", "not UTF-8"),
    ],
)
def test_review_of_a_bad_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes | None, message: str
) -> None:
    path = tmp_path / "bad.mbg"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--quiet")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("plot", ["graph.jpg", "missing-folder/graph.png"])
def test_review_checks_the_plot_path_before_searching(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blunder: tuple[Record, int, int], plot: str
) -> None:
    code, out, err = run(capsys, "review", str(write(tmp_path, blunder[0])), "--plot", str(tmp_path / plot))
    assert code == 2 and out == "" and "--plot" in err and "move 1/" not in err


def test_review_of_a_full_deal_under_a_tiny_budget_gives_estimates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game.new(900_000_005, "Alice", "Bob")  # a deal the shipped catalogue does not know
    for _ in range(6):
        game.play(game.position.legal_moves()[0])
    path = tmp_path / "opening.mbg"
    path.write_text(game.to_text(), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--time", "0.05", "--json", "--quiet", "--hash", "32")
    assert code == 0, err
    data = json.loads(out)
    assert len(data["moves"]) == 6 and data["complete"]
    assert not data["eval_start_exact"] and not data["final"]["exact"]
    assert not any(move["exact"] for move in data["moves"])
    assert {move["bound"] for move in data["moves"]} <= {"estimate", "upper"}
    assert all(move["loss"] >= 0 and move["class"] in CLASS_NAMES for move in data["moves"])
    code, out, err = run(capsys, "review", str(path), "--time", "0.05", "--quiet", "--hash", "32")
    assert code == 0 and "not exact" in out and "~" in out


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_stops_the_review_and_prints_what_is_done(tmp_path: Path) -> None:
    game = Game.new(9, "Alice", "Bob")
    while not game.is_over():
        game.play(game.position.legal_moves()[-1])
    path = tmp_path / "long.mbg"
    path.write_text(game.to_text(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "battle", "review", str(path), "--time", "1", "--hash", "32"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        # A shell's background job starts with SIGINT ignored, the child inherits that, and
        # Python then installs no KeyboardInterrupt handler: give the child the default back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stderr is not None
        first = child.stderr.readline()  # the first move is reviewed: the search of move 2 is running
        assert first.startswith("move 1/"), first
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "Review stopped after move" in out and "interrupted" in err and "Traceback" not in err
