// @ts-check
// The analysis board: a position from a game (any of its moves, stepped through with the
// arrows), pasted `.mbp` text, or one set up in the small editor; the solver's value of every
// legal move, the evaluation and the best line, deeper and deeper while the player looks (each
// step of the server's `analysis_result` replaces the one before, until the values are exact, the
// address's solver time is spent or the server's largest search for one board is reached: the
// status line says which).
// Its address carries the position (`/analysis/#...`), so it can be shared or reloaded.
//
// Picking a pair on the board, or a move in the list, plays it and analyses the position after.

import { $, ServerScreen, analysisAddress, notice, setAddress } from "./dom.js";
import { BoardView } from "./board.js";
import { SolverSocket } from "./socket.js";
import {
  CELL_COUNT, EMPTY, formatPosition, freeCells, kindName, legalMoves, moveName, parseMove, parsePosition, playableCells, replay,
} from "./rules.js";
import { RetryClock, thinkingWords } from "./solver_panel.js";
import { renderLine } from "./game_panels.js";
import { t } from "./i18n.js";
import { signed } from "./server_words.js";
/** @import { Router } from "./app.js" */
/** @import { Position } from "./rules.js" */
/** @import { Evaluation, Handlers } from "./socket.js" */

/** @type {() => Record<string, string>} */
const BOUND_WORDS = () => ({ exact: t("exact"), estimate: t("estimate"), upper: t("at most") });

/** @extends {ServerScreen<SolverSocket>} */
export class AnalysisScreen extends ServerScreen {
  /** @param {Router} app */
  constructor(app) {
    super(app, "analysis", t("left the analysis"));
    /** @type {Position | null} */
    this.start = null;
    /** @type {string[]} */
    this.moves = [];
    this.ply = 0;
    /** @type {Position | null} */
    this.position = null;
    /** @type {number | null} */
    this.selected = null;
    /** @type {{id: string, position: string} | null} */
    this.asked = null; // the analysis the board stands on: {id, position}
    this.count = 0;
    this.retry = new RetryClock(() => this.render()); // a refusal, counted down to asking again
    this.board = new BoardView($("analysis-board"), (cell) => this.pick(cell));
    this.wire();
  }

  /** Open the board on the position the address's fragment names (or an empty editor's deal). */
  show() {
    this.element.hidden = false;
    notice("");
    let opened = null;
    try {
      opened = JSON.parse(decodeURIComponent(location.hash.slice(1)) || "null");
    } catch {
      notice(t("This analysis link does not read: paste a position below."));
    }
    try {
      if (opened && typeof opened.start === "string") {
        const moves = Array.isArray(opened.moves)
          ? opened.moves.filter((/** @type {unknown} */ move) => typeof move === "string") : [];
        replay(opened.start, moves); // every move must play
        this.open(parsePosition(opened.start), moves, Number.isInteger(opened.ply) ? opened.ply : moves.length);
        return;
      }
    } catch (error) {
      notice(t("This analysis link does not read: {reason}", { reason: /** @type {Error} */ (error).message }));
    }
    this.open(null, [], 0);
  }

  hide() {
    this.retry.clear();
    super.hide();
    this.asked = null;
  }

  /** Show `start` after `moves`, at move `ply`, and analyse it (null: nothing on the board yet).
   * @param {Position | null} start @param {string[]} moves @param {number} ply */
  open(start, moves, ply) {
    this.start = start;
    this.moves = moves;
    this.ply = Math.max(0, Math.min(ply, moves.length));
    this.selected = null;
    this.position = start ? replay(formatPosition(start), moves.slice(0, this.ply)) : null;
    if (start) setAddress(analysisAddress(formatPosition(start), moves, this.ply));
    /** @type {HTMLTextAreaElement} */ ($("analysis-text")).value = this.position ? formatPosition(this.position) : "";
    this.analyse();
  }

  analyse() {
    this.result = null;
    this.thinking = null;
    this.retry.clear();
    this.rejected = false; // the server refused the position: nothing is analysed
    if (!this.position || /** @type {HTMLInputElement} */ ($("analysis-edit")).checked) {
      if (this.socket && this.asked) this.socket.stopAnalysis();
      this.asked = null;
      this.render();
      return;
    }
    this.count += 1;
    this.asked = { id: `a${this.count}`, position: formatPosition(this.position) };
    const opening = !this.socket;
    if (opening) this.socket = new SolverSocket({ handlers: this.handlers(), after: () => this.render() });
    const socket = /** @type {SolverSocket} */ (this.socket);
    socket.analyse(this.asked.id, this.asked.position);
    if (opening) socket.start();
    this.render();
  }

  /** Drawn again after every message and change of the line (`after`). @returns {Handlers<SolverSocket>} */
  handlers() {
    return {
      analysis_result: (_socket, message) => {
        if (message.id !== this.asked?.id) return; // the analysis of a position the board has left
        this.result = message;
        if (message.final) this.thinking = null;
      },
      solver_queue: (_socket, message) => {
        if (message.what !== "analysis") return;
        this.thinking = message.place;
        this.thinkingAhead = message.ahead ?? null;
      },
      solver_refused: (_socket, message) => {
        if (message.what === "analysis") this.retry.hold(message, () => this.analyse());
      },
      error: (_socket, message) => {
        this.retry.clear();
        this.result = null;
        this.thinking = null;
        this.rejected = true;
        notice(t("The server refused that: {reason}", { reason: message.reason }));
      },
    };
  }

  // -- the player's input -----------------------------------------------------------------

  /** @param {number} cell */
  pick(cell) {
    if (!this.position) return;
    if (/** @type {HTMLInputElement} */ ($("analysis-edit")).checked) {
      const cells = this.position.cells.slice();
      cells[cell] = Number(/** @type {HTMLSelectElement} */ ($("analysis-kind")).value);
      this.position = { ...this.position, cells };
      /** @type {HTMLTextAreaElement} */ ($("analysis-text")).value = formatPosition(this.position);
      this.render();
      return;
    }
    const playable = playableCells(this.position);
    const kind = this.position.cells[cell];
    if (this.selected === cell) this.selected = null;
    else if (this.selected !== null && kind === this.position.cells[this.selected] && playable.has(cell)) {
      this.playMove(moveName(this.selected < cell ? [this.selected, cell] : [cell, this.selected]));
      return;
    } else if (playable.has(cell)) this.selected = cell;
    this.render();
  }

  /** Play `move` from the shown position: the moves after it are dropped, a new line begins. @param {string} move */
  playMove(move) {
    const start = this.start || this.position;
    this.open(start, [...this.moves.slice(0, this.ply), move], this.ply + 1);
  }

  wire() {
    $("analysis-back").addEventListener("click", () => this.open(this.start, this.moves, this.ply - 1));
    $("analysis-forward").addEventListener("click", () => this.open(this.start, this.moves, this.ply + 1));
    $("analysis-form").addEventListener("submit", (event) => {
      event.preventDefault();
      let position;
      try {
        position = parsePosition(/** @type {HTMLTextAreaElement} */ ($("analysis-text")).value);
      } catch (error) {
        notice(t("That is not a position: {reason}", { reason: /** @type {Error} */ (error).message }));
        return;
      }
      notice("");
      /** @type {HTMLInputElement} */ ($("analysis-edit")).checked = false;
      this.open(position, [], 0);
    });
    $("analysis-edit").addEventListener("change", () => {
      if (!this.position) this.position = { cells: new Array(CELL_COUNT).fill(EMPTY), toMove: 1, scores: [0, 0] };
      /** @type {HTMLSelectElement} */ ($("analysis-to-move")).value = String(this.position.toMove);
      this.analyse();
    });
    $("analysis-to-move").addEventListener("change", () => {
      if (!this.position) return;
      this.position = { ...this.position, toMove: Number(/** @type {HTMLSelectElement} */ ($("analysis-to-move")).value) };
      /** @type {HTMLTextAreaElement} */ ($("analysis-text")).value = formatPosition(this.position);
    });
    const kinds = /** @type {HTMLSelectElement} */ ($("analysis-kind"));
    for (let kind = -1; kind < 27; kind++) {
      const option = document.createElement("option");
      option.value = String(kind);
      option.textContent = kind === EMPTY ? t("empty") : kindName(kind);
      kinds.append(option);
    }
    kinds.value = "0";
    $("analysis-moves").addEventListener("click", (event) => {
      const row = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("tr[data-move]"));
      if (row) this.playMove(/** @type {string} */ (row.dataset.move));
    });
  }

  // -- the screen -------------------------------------------------------------------------

  render() {
    renderLine(this.socket);
    const position = this.position;
    const editing = /** @type {HTMLInputElement} */ ($("analysis-edit")).checked;
    $("analysis-editor").hidden = !editing;
    /** @type {HTMLButtonElement} */ ($("analysis-back")).disabled = this.ply === 0;
    /** @type {HTMLButtonElement} */ ($("analysis-forward")).disabled = this.ply >= this.moves.length;
    $("analysis-step").textContent = this.moves.length
      ? t("Move {ply} of {count}", { ply: this.ply, count: this.moves.length }) : "";
    if (!position) {
      $("analysis-status").textContent = t("Paste a position, or set one up in the editor.");
      $("analysis-moves").replaceChildren();
      $("analysis-eval").textContent = "";
      return;
    }
    const playable = playableCells(position);
    const twins = new Set(this.selected === null ? [] : [...playable].filter(
      (cell) => cell !== this.selected && position.cells[cell] === position.cells[/** @type {number} */ (this.selected)]));
    const lastMove = this.ply > 0 ? this.moves[this.ply - 1] : null;
    this.board.render({
      cells: position.cells, free: new Set(freeCells(position)), playable, selected: this.selected, twins,
      lastMove: lastMove ? parseMove(lastMove) : null,
      lastMover: 3 - position.toMove, active: !editing,
    });
    document.body.dataset.analysis = this.result ? `${this.result.id}:${this.result.final ? "final" : "step"}` : "";
    if (editing) {
      $("analysis-status").textContent = t("Editing: pick a tile kind and click the cells; then Analyse.");
      $("analysis-moves").replaceChildren();
      $("analysis-eval").textContent = "";
      return;
    }
    this.renderResult(position);
  }

  /** @param {Position} position */
  renderResult(position) {
    const result = this.result;
    let status;
    if (legalMoves(position).length === 0) status = t("No pair is left: the game is over here.");
    else if (this.rejected) status = t("The solver does not analyse this position: the server refused it.");
    else if (this.retry.refusal && result && !result.evaluation.exact) {
      // the deepening stopped short of exact because the address's solver time is spent: both said
      status = t("Estimates {depth} moves deep.", { depth: result.evaluation.depth }) + " " + this.retry.words();
    } else if (this.retry.refusal) status = this.retry.words();
    else if (!result) status = this.thinking ? thinkingWords(this.thinking, null, this.thinkingAhead) : t("The solver thinks…");
    else if (result.evaluation.exact) status = t("Exact values: the solver has searched to the end.");
    else if (result.final) {
      status = t("Estimates {depth} moves deep: the solver stops here, at the largest search this server gives one board.",
        { depth: result.evaluation.depth });
    } else status = t("Estimates {depth} moves deep; looking deeper…", { depth: result.evaluation.depth });
    $("analysis-status").textContent = status;
    if (!result) {
      $("analysis-moves").replaceChildren();
      $("analysis-eval").textContent = "";
      return;
    }
    /** @type {Evaluation} */
    const evaluation = result.evaluation;
    const line = evaluation.pv.length ? " " + t("Best line: {line}.", { line: evaluation.pv.join(" ") }) : "";
    $("analysis-eval").textContent = evaluation.best_moves.length === 0
      ? t("Final score {score}.", { score: evaluation.final_score.join("-") })
      : t("Player {seat} to move: {value} ({bound}), best {moves}.", {
        seat: position.toMove, value: signed(evaluation.value),
        bound: evaluation.exact ? t("exact") : t("estimate"), moves: evaluation.best_moves.join(", "),
      }) + line;
    const bounds = BOUND_WORDS();
    const rows = evaluation.moves.map((entry) => {
      const row = document.createElement("tr");
      row.dataset.move = entry.move;
      row.dataset.value = String(entry.value);
      row.dataset.bound = entry.bound;
      if (evaluation.best_moves.includes(entry.move)) row.className = "best";
      for (const text of [entry.move, signed(entry.value), bounds[entry.bound] || entry.bound, String(entry.points)]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    });
    $("analysis-moves").replaceChildren(...rows);
  }
}
