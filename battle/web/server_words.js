// @ts-check
// How the page words what the server states as facts: how a game ended (the `result` of a
// `state`) and why a message was refused (an `error`'s `code` and `params`), in the reader's
// language. The server's own `reason` is fixed English for logs and old clients; the page never
// shows it. "You" is decided by seat, never by name. The window and the terminal word the same
// facts in battle/online/client/wording.py: a game's end with the same sentences of the catalogue,
// a refusal from the same table (refusal_words.json).

import { t, tn } from "./i18n.js";
import refusalWords from "./refusal_words.json" with { type: "json" };
/** @import { Message, Result, State } from "./socket.js" */

/** A margin or a value as the page shows it, with its sign: +4, -2, 0. @param {number} value */
export function signed(value) {
  return (value > 0 ? "+" : "") + value;
}

/** The six solver levels as the window names them (battle/rules/wording.py's "solver level" words). */
export const LEVELS = ["beginner", "casual", "club", "expert", "master", "perfect"];

/** A solver level in the reader's language; an unknown one as given. @param {string} level */
export function levelName(level) {
  /** @type {Record<string, string>} */
  const names = {
    beginner: t("beginner"), casual: t("casual"), club: t("club"), expert: t("expert"), master: t("master"),
    perfect: t("perfect"),
  };
  return names[level] || level;
}

/** The solver's name in the reader's language: "Solver (club)", "Solver (Verein)". @param {string} level */
export function solverName(level) {
  return t("Solver ({level})", { level: levelName(level) });
}

const SOLVER_NAME = /^Solver \((\w+)\)$/;
const SEAT_NAME = /^Player ([12])$/;

/** A name as shown: the solver's side, which a game and its record name "Solver (club)" in English
 * (battle/rules/wording.py's solver_name), and the names a record gives a seat nobody named
 * ("Player 1", "You") in the reader's language, as the window's shown_name does; any other name as
 * given. @param {string} name */
export function shownName(name) {
  const level = SOLVER_NAME.exec(name)?.[1];
  if (level && LEVELS.includes(level)) return solverName(level);
  const seat = SEAT_NAME.exec(name)?.[1];
  if (seat) return t("Player {seat}", { seat });
  return name.trim().toLowerCase() === "you" ? t("You") : name;
}

/** A seat's name as the server has it (the solver's in the reader's language), else "Player 1" or
 * "Player 2" in the reader's language. @param {State} state @param {number} seat */
export function nameOf(state, seat) {
  const found = (state.players || []).find((p) => p.seat === seat);
  return found?.name ? shownName(found.name) : t("Player {seat}", { seat });
}

/** The scores as a result reads them: the winner's first ("Bob wins 118-100"); for a draw, and for
 * a game without a winner, the reader's own first, seat order for a spectator.
 * @param {number[]} scores @param {State["you"]} you @param {number | null} [winner] */
function scoreText(scores, you, winner) {
  const first = winner === 1 || winner === 2 ? winner : you === 2 ? 2 : 1;
  return `${scores[first - 1]}-${scores[2 - first]}`;
}

/** One sentence for a finished game's `state`: "You resigned; Ann wins, 62-40.", "Bob wins 118-100 (by 18)."
 * @param {State} state */
export function resultText(state) {
  /** @type {Partial<Result>} */
  const result = state.result || {};
  if (result.reason === "aborted") return t("The game was called off (by a player, or because nobody moved in time); it counts for nothing.");
  if (result.reason === "expired") return t("Nobody joined in time: the game expired and counts for nothing.");
  const scores = result.scores || state.scores || [0, 0];
  const you = state.you;
  const winner = result.winner;
  const score = scoreText(scores, you, winner);
  if (winner !== 1 && winner !== 2) return t("Draw, {score}.", { score });
  const loser = 3 - winner;
  const names = { winner: nameOf(state, winner), loser: nameOf(state, loser), score };
  if (result.reason === "resign") {
    if (you === loser) return t("You resigned; {winner} wins, {score}.", names);
    if (you === winner) return t("{loser} resigned; you win, {score}.", names);
    return t("{loser} resigned; {winner} wins, {score}.", names);
  }
  if (result.reason === "abandoned") {
    if (you === loser) return t("You did not move for too long; {winner} wins, {score}.", names);
    if (you === winner) return t("{loser} did not move for too long; you win, {score}.", names);
    return t("{loser} did not move for too long; {winner} wins, {score}.", names);
  }
  if (result.reason === "time") {
    if (you === loser) return t("You ran out of time; {winner} wins, {score}.", names);
    if (you === winner) return t("{loser} ran out of time; you win, {score}.", names);
    return t("{loser} ran out of time; {winner} wins, {score}.", names);
  }
  const margin = Math.abs(scores[0] - scores[1]);
  if (you === winner) return t("You win {score} (by {margin}).", { score, margin });
  return t("{name} wins {score} (by {margin}).", { name: names.winner, score, margin });
}

/** The refusals' sentences, which the window and the terminal read too: by code, cases tried in order;
 * a case fits when each param it names (but `say` and `plural`) has that value and each field of its
 * sentence can be filled, by the field's kind in `fields`.
 * @typedef {{ say: string | string[], plural?: string, [param: string]: unknown }} Case
 * @type {{ fields: Record<string, string>, codes: Record<string, Case[]>, otherwise: Case }} */
const REFUSALS = refusalWords;

/** A count, or seconds to wait rounded up (as the window's `_number`).
 * @type {(params: Record<string, any>, key: string) => number} */
const number = (params, key) => (typeof params[key] === "number" ? Math.ceil(params[key]) : 0);

/** A case's sentence in the reader's language; null when the case does not fit.
 * @param {Case} entry @param {Message} error @param {State | null} [state] */
function sentence(entry, error, state) {
  const params = error.params || {};
  const { say, plural, ...when } = entry;
  if (Object.entries(when).some(([key, value]) => params[key] !== value)) return null;
  const forms = typeof say === "string" ? [say] : say;
  const seat = state && (params.seat === 1 || params.seat === 2) ? nameOf(state, params.seat) : null;
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [, field] of forms.join(" ").matchAll(/\{(\w+)\}/g)) {
    const kind = REFUSALS.fields[field];
    values[field] = kind === "plural" ? number(params, plural || "") : kind === "number" ? number(params, field)
      : kind === "text" ? params[field] || null : kind === "seat" ? seat : kind === "code" ? error.code : null;
    if (values[field] === null) return null;
  }
  return plural ? tn(forms[0], forms[1], Number(values.count), values) : t(forms[0], values);
}

/** Why the server refused a message, in a sentence: the first case of its code that fits, else
 * `otherwise` (`state` names the seat to move). @param {Message} error @param {State | null} [state] */
export function refusalText(error, state) {
  const cases = Object.hasOwn(REFUSALS.codes, error.code) ? REFUSALS.codes[error.code] : [];
  for (const entry of [...cases, REFUSALS.otherwise]) {
    const said = sentence(entry, error, state);
    if (said !== null) return said;
  }
  return error.code; // `otherwise` always fits
}
