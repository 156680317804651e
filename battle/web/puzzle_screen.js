// @ts-check
// The puzzles: the shipped set, solved against the server (`puzzle_open`, `puzzle_move`,
// `puzzle_reveal` in docs/protocol.md), which checks every move, so the page never holds a
// puzzle's line before the attempt is over. The next puzzle comes near this browser's puzzle
// rating, of one theme or any; `/puzzles/ID` opens one puzzle.
//
// A right move is played with the solver's reply from the line. A wrong one is shown on the board
// with what it loses and, once the server's solver has found it, its refutation (both tiles of the
// reply framed); Try again goes back to the position before it. The rating is the server's, kept
// under this browser's device key (device.js): a reload or another tab shows the same one. Each
// sentence is the window's (battle/puzzles/puzzle_words.py), so a puzzle reads the same in both.

import { $, ServerScreen, notice, setAddress, withLanguage } from "./dom.js";
import { BoardView } from "./board.js";
import { PuzzleSocket } from "./socket.js";
import { deviceKey } from "./device.js";
import { freeCells, kindValue, moveName, parseMove, playableCells, replay } from "./rules.js";
import { renderLine } from "./game_panels.js";
import { refusalText } from "./server_words.js";
import { t, tn } from "./i18n.js";
/** @import { Router } from "./app.js" */
/** @import { Handlers, Message, SolverSocket } from "./socket.js" */

/** This browser's puzzle rating and streaks.
 * @typedef {{rating: number, deviation: number, streak: number, best_streak: number, attempts: number}} Standing */

const PUZZLE_ID = /^[0-9a-f]{10}$/;

/** Whether `text` reads as a puzzle's id (ten hex digits). @param {string | null} text */
export function isPuzzleId(text) {
  return PUZZLE_ID.test(text || "");
}

/** @type {() => Record<string, string>} */
const THEME_WORDS = () => ({ tempo: t("tempo"), blockade: t("blockade"), sacrifice: t("sacrifice") });

/** @param {number} side */
function sideName(side) {
  return t("Player {player}", { player: side });
}

/** What a wrong move loses, as the window says it: "e4-g7 (6) loses 8 points and turns a win into a draw."
 * @param {Message} judged */
export function wrongWords(judged) {
  const values = { move: judged.move, points: judged.points };
  const turn = `${judged.result_before}:${judged.result_after}`;
  if (turn === "1:0") {
    return tn("{move} ({points}) loses {count} point and turns a win into a draw.",
      "{move} ({points}) loses {count} points and turns a win into a draw.", judged.loss, values);
  }
  if (turn === "1:-1") {
    return tn("{move} ({points}) loses {count} point and turns a win into a loss.",
      "{move} ({points}) loses {count} points and turns a win into a loss.", judged.loss, values);
  }
  if (turn === "0:-1") {
    return tn("{move} ({points}) loses {count} point and turns a draw into a loss.",
      "{move} ({points}) loses {count} points and turns a draw into a loss.", judged.loss, values);
  }
  return tn("{move} ({points}) loses {count} point.", "{move} ({points}) loses {count} points.", judged.loss, values);
}

/** Why the server refused a puzzle request, in a sentence (the game's refusals in server_words.js).
 * @param {Message} error */
export function puzzleRefusal(error) {
  const params = error.params || {};
  const count = Number(params.count) || 0;
  if (error.code === "busy" && params.why === "new_devices") {
    return tn("Your network started {count} puzzle rating in the last hour, as many as this server allows: try again later.",
      "Your network started {count} puzzle ratings in the last hour, as many as this server allows: try again later.", count);
  }
  if (error.code === "busy" && params.why === "puzzle_attempts") {
    return tn("Your network tried {count} puzzle in the last hour, as many as this server allows: try again later.",
      "Your network tried {count} puzzles in the last hour, as many as this server allows: try again later.", count);
  }
  if (error.code === "busy" && params.why === "puzzles_open") {
    return tn("Your network has {count} puzzle open already, as many as this server allows: close one first.",
      "Your network has {count} puzzles open already, as many as this server allows: close one first.", count);
  }
  if (error.code === "not_found" && params.what === "puzzle") return t("This server has no such puzzle.");
  if (error.code === "game_over") return t("This puzzle is over: open the next one.");
  return refusalText(error, null);
}

/** @param {{rating: number, deviation: number}} rating */
function ratingWords(rating) {
  return `${Math.round(rating.rating)} ± ${Math.round(2 * rating.deviation)}`;
}

/** @extends {ServerScreen<PuzzleSocket>} */
export class PuzzleScreen extends ServerScreen {
  /** @param {Router} app */
  constructor(app) {
    super(app, "puzzles", t("left the puzzles"));
    // the attempt's fields that reset() sets, declared for the type checker
    /** @type {string[]} */
    this.moves;
    /** @type {number} */
    this.step;
    /** @type {number | null} */
    this.selected;
    /** @type {boolean} */
    this.pending;
    this.reset();
    /** @type {Standing | null} */
    this.standing = null;
    this.shownCount = 0; // puzzles shown since the screen opened, on the body for the tests to wait for
    this.board = new BoardView($("puzzle-board"), (cell) => this.pick(cell));
    this.wire();
  }

  reset() {
    this.shown = null; // the server's puzzle_shown
    this.moves = []; // played from the start: the moves found and the replies
    this.step = 0;
    this.selected = null;
    /** @type {{judged: Message, refutation?: string | null} | null} */
    this.wrong = null; // {judged, refutation: undefined while searched, null for none, else a move}
    /** @type {Record<string, any> | null} */
    this.change = null; // the attempt's rating change, once decided
    this.confirming = false; // "Show solution" pressed once on an undecided attempt: the next press shows it
    this.over = null; // the puzzle_solution
    this.pending = false;
    this.solved = false; // the last move was found with no wrong move and no solution asked for
    this.refusal = ""; // why the server refused the last request, in a sentence
  }

  /** Open puzzle `id` (null: the next one near this browser's rating). @param {string | null} id */
  show(id = null) {
    this.element.hidden = false;
    this.open(id);
  }

  /** @param {string | null} id */
  open(id) {
    this.reset();
    notice("");
    const opening = !this.socket;
    if (opening) this.socket = new PuzzleSocket({ handlers: this.handlers(), after: () => this.render() });
    const socket = /** @type {PuzzleSocket} */ (this.socket);
    socket.openPuzzle(deviceKey(), id, /** @type {HTMLSelectElement} */ ($("puzzle-theme")).value || null);
    if (opening) socket.start();
    this.render();
  }

  /** Drawn again after every message and change of the line (`after`). @returns {Handlers<SolverSocket>} */
  handlers() {
    return {
      puzzle_shown: (socket, message) => {
        this.reset();
        this.shown = message;
        this.standing = message.standing;
        this.shownCount += 1;
        document.body.dataset.puzzlesShown = String(this.shownCount);
        // a line that comes back reopens this puzzle, not another one
        /** @type {PuzzleSocket} */ (socket).keepPuzzle(deviceKey(), message.puzzle);
        setAddress(`/puzzles/${message.puzzle}`);
      },
      puzzle_judged: (_socket, message) => {
        if (message.puzzle === this.shown?.puzzle) this.judged(message);
      },
      puzzle_refutation: (_socket, message) => {
        if (this.wrong?.judged.move !== message.move) return;
        /** @type {NonNullable<typeof this.wrong>} */ (this.wrong).refutation = message.refutation;
      },
      puzzle_solution: (_socket, message) => {
        if (message.puzzle !== this.shown?.puzzle) return;
        this.over = message;
        this.wrong = null;
        this.moves = [...this.moves, ...message.rest];
        if (message.change) this.decided(message.change);
      },
      error: (_socket, message) => {
        this.pending = false;
        this.refusal = puzzleRefusal(message);
        notice(this.refusal);
      },
    };
  }

  /** @param {Message} message */
  judged(message) {
    this.pending = false;
    if (message.finished) this.solved = message.solved;
    if (message.change) this.decided(message.change);
    if (message.correct) {
      this.moves = [...this.moves, message.move, ...(message.reply ? [message.reply] : [])];
      this.step += 1;
      this.wrong = null;
    } else {
      this.wrong = { judged: message, refutation: message.refuting ? undefined : null };
    }
  }

  /** @param {Record<string, any>} change */
  decided(change) {
    this.change = change;
    const standing = this.standing || { best_streak: 0, attempts: 0 };
    this.standing = {
      ...change.player_after, streak: change.streak,
      best_streak: Math.max(standing.best_streak, change.streak), attempts: standing.attempts + 1,
    };
  }

  position() {
    return replay(/** @type {Message} */ (this.shown).position, this.moves);
  }

  // -- the player's input -----------------------------------------------------------------

  /** @param {number} cell */
  pick(cell) {
    if (!this.shown || this.over || this.pending) return;
    if (this.wrong) {
      this.tryAgain(); // a click on the board goes back, as the window's does
      return;
    }
    this.confirming = false; // a click on the board is a move, not the solution
    const position = this.position();
    const playable = playableCells(position);
    if (this.selected === cell) this.selected = null;
    else if (this.selected !== null && position.cells[cell] === position.cells[this.selected] && playable.has(cell)) {
      const move = moveName(this.selected < cell ? [this.selected, cell] : [cell, this.selected]);
      this.selected = null;
      this.pending = true;
      /** @type {PuzzleSocket} */ (this.socket).tryMove(move);
    } else if (playable.has(cell)) this.selected = cell;
    this.render();
  }

  tryAgain() {
    this.wrong = null;
    this.selected = null;
    this.render();
  }

  wire() {
    $("puzzle-retry").addEventListener("click", () => this.tryAgain());
    $("puzzle-reveal").addEventListener("click", () => {
      if (!this.shown || this.over) return;
      if (!this.change && !this.confirming) {
        this.confirming = true; // undecided: the solution would rate a miss, which the player hears first
        this.render();
        return;
      }
      this.confirming = false;
      /** @type {PuzzleSocket} */ (this.socket).reveal();
    });
    $("puzzle-next").addEventListener("click", () => {
      setAddress("/puzzles/", true);
      this.open(null);
    });
    $("puzzle-theme").addEventListener("change", () => {
      setAddress("/puzzles/", true);
      this.open(null);
    });
  }

  // -- the screen -------------------------------------------------------------------------

  render() {
    renderLine(this.socket);
    const shown = this.shown;
    $("puzzle-standing").textContent = this.standing
      ? t("Your puzzle rating: {rating}. Streak: {streak} (best {best}).", {
        rating: ratingWords(this.standing), streak: this.standing.streak, best: this.standing.best_streak,
      })
      : "";
    /** @type {HTMLButtonElement} */ ($("puzzle-retry")).disabled = !this.wrong || Boolean(this.over);
    /** @type {HTMLButtonElement} */ ($("puzzle-reveal")).disabled = !shown || Boolean(this.over) || this.pending;
    $("puzzle-reveal").textContent = this.confirming && !this.change ? t("Yes, show it") : t("Show solution");
    if (!shown) {
      $("puzzle-status").textContent = this.refusal || t("Looking for a puzzle…");
      $("puzzle-about").textContent = "";
      $("puzzle-change").textContent = "";
      document.body.dataset.puzzle = "";
      return;
    }
    const link = /** @type {HTMLAnchorElement} */ ($("puzzle-link"));
    link.href = withLanguage(`/puzzles/${shown.puzzle}`);
    link.textContent = `${location.origin}/puzzles/${shown.puzzle}`;
    const themes = THEME_WORDS();
    $("puzzle-about").textContent = [
      t("Puzzle {id}, rated {rating} for you.", { id: shown.puzzle, rating: Math.round(shown.rating) }),
      tn("{count} move to find", "{count} moves to find", shown.length) + ".",
      shown.themes.length
        ? t("Themes: {join}.", { join: shown.themes.map((/** @type {string} */ name) => themes[name] || name).join(", ") })
        : t("No particular theme."),
    ].join(" ");
    const change = this.change;
    $("puzzle-change").textContent = change
      ? t("Your puzzle rating: {before} → {after}; this puzzle: {puzzle_before} → {puzzle_after}. Streak: {streak}.", {
        before: Math.round(change.player_before.rating), after: ratingWords(change.player_after),
        puzzle_before: Math.round(change.puzzle_before.rating), puzzle_after: Math.round(change.puzzle_after.rating),
        streak: change.streak,
      })
      : "";
    this.renderBoard();
    this.renderStatus();
  }

  renderBoard() {
    const position = this.position();
    let shownPosition = position;
    let lastMove = this.moves.length ? parseMove(this.moves[this.moves.length - 1]) : null;
    let twins = new Set();
    if (this.wrong) {
      const move = /** @type {number[]} */ (parseMove(this.wrong.judged.move));
      const cells = position.cells.slice();
      cells[move[0]] = -1;
      cells[move[1]] = -1;
      shownPosition = { ...position, cells, toMove: 3 - position.toMove };
      lastMove = move;
      if (this.wrong.refutation) twins = new Set(parseMove(this.wrong.refutation));
    } else if (this.selected !== null) {
      const playable = playableCells(position);
      twins = new Set([...playable].filter(
        (cell) => cell !== this.selected && position.cells[cell] === position.cells[/** @type {number} */ (this.selected)]));
    }
    this.board.render({
      cells: shownPosition.cells, free: new Set(freeCells(shownPosition)), playable: playableCells(shownPosition),
      selected: this.wrong ? null : this.selected, twins, lastMove, lastMover: 3 - shownPosition.toMove,
      active: !this.over && !this.pending,
    });
  }

  renderStatus() {
    const shown = /** @type {Message} */ (this.shown); // rendered once shown
    let status;
    let phase;
    if (this.over) {
      const solved = this.solved && this.over.rest.length === 0;
      status = solved ? t("Solved!") : t("Not solved at the first try.");
      if (this.over.rest.length) status += " " + t("Solution: {line}.", { line: this.over.line.join(", ") });
      phase = solved ? "solved" : "missed";
    } else if (this.wrong) {
      const judged = this.wrong.judged;
      status = wrongWords(judged);
      const refutation = this.wrong.refutation;
      if (refutation === undefined) status += " " + t("Looking for the refutation…");
      else if (refutation) {
        const after = replay(shown.position, [...this.moves, judged.move]);
        const points = kindValue(after.cells[/** @type {number[]} */ (parseMove(refutation))[0]]);
        status += " " + t("Refutation: {what} replies {move_name} ({points}).", {
          what: sideName(3 - shown.to_move), move_name: refutation, points,
        });
      }
      status += " " + t("Try again (pick another pair), or Show solution.");
      phase = refutation === undefined ? "wrong" : "refuted";
    } else {
      const side = sideName(shown.to_move);
      status = this.step ? t("Find the next best move for {side}.", { side }) : t("Find the best move for {side}.", { side });
      const last = this.moves.length ? this.moves[this.moves.length - 1] : null;
      if (this.step && last) {
        const before = replay(shown.position, this.moves.slice(0, -1));
        status = t("{what} replies {move_name} ({points}).", {
          what: sideName(3 - shown.to_move), move_name: last,
          points: kindValue(before.cells[/** @type {number[]} */ (parseMove(last))[0]]),
        }) + " " + status;
      }
      phase = `step${this.step}`;
    }
    if (this.confirming && !this.change && !this.over) {
      status = t("Showing the solution counts this puzzle as missed: your puzzle rating goes down and your streak ends. Press “Yes, show it”, or play a move.");
      phase = "confirm";
    }
    $("puzzle-status").textContent = status;
    document.body.dataset.puzzle = `${shown.puzzle}:${phase}`;
  }
}
