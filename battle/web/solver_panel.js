// @ts-check
// A game against the solver on the game screen: the solver's card (its level, the deal's par,
// the hint with its evaluation and best line, labelled exact or estimate as the window labels
// them), what the solver is doing (thinking, or its place in the queue), and the solver's
// refusals in words, each counted down to its retry, which the page then asks itself. The server
// sends facts (a level, a place, a refusal's code and seconds); every sentence is made here.

import { $ } from "./dom.js";
import { t, tn } from "./i18n.js";
import { cellName, kindName, kindValue, moveName } from "./rules.js";
import { tileWords } from "./tile_words.js";
import { levelName, signed } from "./server_words.js";
/** @import { View } from "./game_view.js" */
/** @import { whatOpens } from "./rules.js" */
/** @import { Evaluation, GameSocket, Message, State } from "./socket.js" */

/** Where the solver's work stands, for the turn line; "" when it is not the solver's turn. `wait`:
 * the seconds left until its address's solver time pays for it (null when it does not wait for it);
 * `ahead`: roughly the seconds of other players' solver work before it (null when not known).
 * @param {number | null} [place] @param {number | null} wait @param {number | null} ahead */
export function thinkingWords(place, wait = null, ahead = null) {
  if (place === null || place === undefined) return t("The solver is about to move.");
  if (place === 0) return t("The solver thinks…");
  if (wait) {
    return tn("The solver's move waits for your address's solver time: it starts in {count} second.",
      "The solver's move waits for your address's solver time: it starts in {count} seconds.", wait);
  }
  return withAhead(t("The solver waits for a free worker: place {place} in the queue.", { place }), ahead);
}

/** A sentence of work waiting in the queue, and after it roughly the seconds of other players'
 * solver work before it (`ahead`; nothing more when it is not known). @param {string} queued @param {number | null} ahead */
export function withAhead(queued, ahead = null) {
  if (!ahead) return queued;
  return queued + " " + tn("Other players' solver work ahead of it: about {count} second.",
    "Other players' solver work ahead of it: about {count} seconds.", ahead);
}

/** Whole seconds left until `until` (a time in ms), at least 1 while it is not past. @param {number | null} until */
export function secondsUntil(until) {
  return until ? Math.max(1, Math.ceil((until - Date.now()) / 1000)) : null;
}

/** Why solver work was refused and what waits, in words; `seconds`: those left until it is asked
 * again (counted down by the screen, which asks again itself; the server asks for a move).
 * @param {Message} refusal */
export function refusalWords(refusal, seconds = Math.ceil(refusal.retry_after ?? 0)) {
  const move = refusal.what === "move";
  const again = !refusal.retry_after ? ""
    : move ? tn("The solver asks for its move again in {count} second.",
      "The solver asks for its move again in {count} seconds.", seconds)
      : tn("Asking again in {count} second.", "Asking again in {count} seconds.", seconds);
  const full = /** @type {Record<string, string>} */ ({
    move: t("The solver has as many moves waiting as it takes."),
    review: t("The solver has as many reviews waiting as it takes."),
  })[refusal.what] || t("The solver has as many hints and analyses waiting as it takes.");
  const yours = refusal.what === "review" ? t("Your address has as many reviews waiting as it may.")
    : t("Your address has as many hints and analyses waiting as it may.");
  /** @type {Record<string, string>} */
  const why = {
    budget: t("The solver time of your address is spent for now."),
    busy: full,
    queued: yours,
    closed: t("The server is stopping: the solver takes no more work."),
    failed: move ? t("The solver's search failed; it tries again.") : t("The solver's search failed: ask again."),
    no_solver: t("This server runs no solver: start it without --solver-workers 0 to play against it."),
    not_solver_game: t("Hints are for games against the solver only."),
    not_your_turn: t("A hint is for your own turn."),
    game_over: t("The game is over: there is nothing to hint."),
    not_finished: t("Only a finished game can be reviewed."),
    not_found: refusal.what === "game" ? t("This server has no catalogued deal of that kind.")
      : t("No review has that link."),
    too_many: t("Your address has as many games against the solver going as it may: finish one first."),
    unavailable: t("The solver is unavailable for now.") + " " + (move && refusal.retry_after
      ? tn("It tries again in {count} second.", "It tries again in {count} seconds.", seconds) : again),
  };
  const words = why[refusal.code] || t("The solver could not do that ({code}).", { code: refusal.code });
  const retried = ["budget", "busy", "queued"].includes(refusal.code) || (move && refusal.code === "failed");
  return (retried && again ? words + " " + again : words).trim();
}

/**
 * A screen's latest refusal of solver work, counted down: `render` every quarter of a second while
 * it counts, and `again` (the screen asks once more) when its `retry_after` has passed.
 */
export class RetryClock {
  /** @param {() => void} render */
  constructor(render) {
    this.render = render;
    /** @type {Message | null} */
    this.refusal = null;
    /** @type {number | null} */
    this.until = null;
    this.timer = null;
  }

  /** Hold `refusal` (a solver_refused); with `again`, its retry_after counts down to it.
   * @param {Message} refusal @param {(() => void) | null} again */
  hold(refusal, again = null) {
    this.clear();
    this.refusal = refusal;
    if (!refusal.retry_after) return;
    this.until = Date.now() + refusal.retry_after * 1000;
    this.timer = setInterval(() => {
      if (Date.now() >= /** @type {number} */ (this.until)) {
        if (again) {
          this.clear();
          again();
        } else {
          clearInterval(/** @type {number} */ (this.timer)); // the server asks again itself: its news follows
          this.timer = null;
        }
      }
      this.render();
    }, 250);
  }

  /** The refusal in words with the seconds left, "" when there is none. */
  words() {
    return this.refusal ? refusalWords(this.refusal, /** @type {number} */ (secondsUntil(this.until))) : "";
  }

  clear() {
    clearInterval(/** @type {number} */ (this.timer));
    this.timer = null;
    this.refusal = null;
    this.until = null;
  }
}

/** The solver's card: hidden in a game between people. @param {View} view @param {GameSocket} socket */
export function renderSolverPanel(view, socket) {
  const solver = socket.solver;
  $("solver-panel").hidden = !solver;
  if (!solver) return;
  const par = solver.par === null || solver.par === undefined ? ""
    : solver.par === 0 ? " " + t("Par: even (a draw under perfect play).")
      : " " + t("Par: the first player {value} under perfect play.", { value: signed(solver.par) });
  const player = view.you === 1 || view.you === 2;
  const level = { level: levelName(solver.level) };
  // a spectator plays nobody, and a game over is played no more
  const who = !player ? t("A game against the solver at level {level}.", level)
    : view.state.status === "finished" ? t("You played the solver at level {level}.", level)
      : t("You play the solver at level {level}.", level);
  $("solver-level").textContent = who + par;
  $("hint").hidden = !player || !view.playing;
  /** @type {HTMLButtonElement} */ ($("hint")).disabled = !view.yourTurn || socket.hintAsked;
  $("hint").textContent = socket.hintAsked ? t("Hint asked…") : t("Hint (H)");
  const hint = socket.hint;
  const fresh = hint && hint.game === view.state.game && hint.ply === view.history.length && view.playing;
  $("hint-result").hidden = !fresh;
  if (fresh) $("hint-result").textContent = hintWords(hint.evaluation, view.you);
}

/** A hint in words: the best moves, what the mover takes from here more than the solver (exact or an
 * estimate), the final score that play ends in, and the best line. The value counts the points still
 * to take, never those taken: the final score says where the game ends.
 * @param {Evaluation} evaluation @param {State["you"]} you */
export function hintWords(evaluation, you) {
  const best = evaluation.best_moves.join(", ");
  const value = Math.abs(evaluation.value);
  let worth;
  if (evaluation.exact) {
    worth = evaluation.value > 0 ? tn("exact: from here you take {count} point more than the solver",
      "exact: from here you take {count} points more than the solver", value)
      : evaluation.value < 0 ? tn("exact: from here you take {count} point fewer than the solver",
        "exact: from here you take {count} points fewer than the solver", value)
        : t("exact: from here you take as many points as the solver");
    if (you === 1 || you === 2) {
      const score = evaluation.final_score;
      worth += "; " + t("final score: you {yours}, the solver {theirs}", { yours: score[you - 1], theirs: score[2 - you] });
    }
  } else {
    worth = evaluation.value > 0 ? tn("estimate, {depth} moves deep: from here you take about {count} point more than the solver",
      "estimate, {depth} moves deep: from here you take about {count} points more than the solver", value, { depth: evaluation.depth })
      : evaluation.value < 0 ? tn("estimate, {depth} moves deep: from here you take about {count} point fewer than the solver",
        "estimate, {depth} moves deep: from here you take about {count} points fewer than the solver", value, { depth: evaluation.depth })
        : t("estimate, {depth} moves deep: from here you take about as many points as the solver", { depth: evaluation.depth });
  }
  const line = evaluation.pv.length ? " " + t("Best line: {line}.", { line: evaluation.pv.join(" ") }) : "";
  return t("Best: {moves} ({worth}).", { moves: best, worth }) + line;
}

/** Save a game's `.mbg` text (the `record` message) as a file the browser downloads. @param {Message} message */
export function downloadRecord(message) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([message.mbg], { type: "text/plain;charset=utf-8" }));
  link.download = `mahjong-battle-${message.game}.mbg`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** A new pair of the opponent's in words, its points and its ways to be taken: "a pair of 3-circles (3, 2 ways)".
 * @param {number} kind @param {number} ways */
function giftWords(kind, ways) {
  const pair = t("a pair of {tiles}", { tiles: tileWords(kind) });
  return ways > 1 ? tn("{pair} ({value}, {ways} way)", "{pair} ({value}, {ways} ways)", ways,
    { pair, value: kindValue(kind), ways })
    : t("{pair} ({value})", { pair, value: kindValue(kind) });
}

/** What a move opens in one line, in the window's hover's own sentences (battle/rules/opens.py's
 * describe_opening): "c1-c9 frees c2 (7p), c8 (3s): opponent gets a pair of 7-circles (7)".
 * @param {ReturnType<typeof whatOpens>} opening */
export function openingWords(opening) {
  const move = moveName(opening.move);
  const cells = opening.freed.map((cell, index) => `${cellName(cell)} (${kindName(opening.freedKinds[index])})`)
    .join(", ");
  if (opening.opponentMoves === 0) {
    return cells ? t("{move} frees {cells}: no pair left, the game ends", { move, cells })
      : t("{move} frees nothing: no pair left, the game ends", { move });
  }
  const ways = new Map(); // each kind the opponent gets a pair of, in board order, with its ways
  for (const [a] of opening.newPairs) {
    const kind = opening.after.cells[a];
    ways.set(kind, (ways.get(kind) || 0) + 1);
  }
  if (ways.size === 0) {
    return cells ? t("{move} frees {cells}: no new pair for the opponent", { move, cells })
      : t("{move} frees nothing: no new pair for the opponent", { move });
  }
  // joined as the language joins a list ("a, b and c"), as the window's Babel list pattern does
  const list = new Intl.ListFormat(document.documentElement.lang || "en", { type: "conjunction" });
  const pairs = list.format([...ways].map(([kind, count]) => giftWords(kind, count)));
  return t("{move} frees {cells}: opponent gets {pairs}", { move, cells, pairs });
}
