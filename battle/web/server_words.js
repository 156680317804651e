// @ts-check
// How the page words what the server states as facts: how a game ended (the `result` of a
// `state`) and why a message was refused (an `error`'s `code` and `params`), in the reader's
// language. The server's own `reason` is fixed English for logs and old clients; the page never
// shows it. "You" is decided by seat, never by name. The window and the terminal word the same
// facts in battle/online/client/wording.py, with the same sentences of the catalogue.

import { t, tn } from "./i18n.js";
/** @import { Message, Result, State } from "./socket.js" */

/** The six solver levels as the window names them (battle/rules/wording.py's "solver level" words). */
/** A margin or a value as the page shows it, with its sign: +4, -2, 0. @param {number} value */
export function signed(value) {
  return (value > 0 ? "+" : "") + value;
}

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

/** A name as shown: the solver's side, which a game and its record name "Solver (club)" in English
 * (battle/rules/wording.py's solver_name), in the reader's language, as the window's shown_name
 * does; any other name as given. @param {string} name */
export function shownName(name) {
  const level = SOLVER_NAME.exec(name)?.[1];
  return level && LEVELS.includes(level) ? solverName(level) : name;
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

/** @type {(params: Record<string, any>, key: string) => number} */
const number = (params, key) => (typeof params[key] === "number" ? Math.round(params[key]) : 0);

/** @type {Record<string, (p: Record<string, any>) => string>} */
const NOT_ALLOWED = {
  own_seat: () => t("You hold the other seat of this game already."),
  abort_late: (p) => t("A game can be called off only before move {ply}; resign instead.", { ply: number(p, "ply") }),
  rematch_early: () => t("A rematch can be offered once the game is over."),
  unplayed: () => t("This game was never played: host a new one."),
  rematch_declined: (p) => tn(
    "Your opponent turned down a rematch: you can offer again in {count} second.",
    "Your opponent turned down a rematch: you can offer again in {count} seconds.",
    number(p, "seconds"),
  ),
  rematch_begun: () => t("The rematch has begun already."),
  rematch_offered: () => t("You have offered a rematch already."),
  rematch_waiting: () => t("Your opponent has offered a rematch: accept it."),
  takeback_not_last: () => t("Only the player who made the last move can ask to take it back."),
  takeback_asked: () => t("You have asked to take back your move already."),
  takeback_declined: () => t("Your opponent said no to taking back this move."),
  named: () => t("Your seat has a name already."),
  in_game: () => t("The lobby is followed on a line that is in no game."),
};

/** Why the server refused a message, in a sentence (`state` names the seat to move).
 * @param {Message} error @param {State | null} [state] */
export function refusalText(error, state) {
  const params = error.params || {};
  const why = params.why;
  switch (error.code) {
    case "not_allowed":
      return NOT_ALLOWED[why] ? NOT_ALLOWED[why](params) : t("The server does not allow that now.");
    case "illegal_move":
      if (why === "illegal" && params.move) return t("{move} is not a legal move here.", { move: params.move });
      return params.move ? t("The server could not read the move {move}.", { move: params.move }) : t("Not a legal move.");
    case "not_your_turn":
      return state && (params.seat === 1 || params.seat === 2)
        ? t("It is not your turn: {name} is to move.", { name: nameOf(state, params.seat) })
        : t("It is not your turn.");
    case "no_offer":
      return params.offer === "takeback" ? t("Your opponent has not asked to take back a move.")
        : t("Your opponent has not offered a rematch.");
    case "busy":
      if (why === "waiting") {
        return tn(
          "{count} game from your address waits for a second player already: abort it or wait for a friend.",
          "{count} games from your address wait for a second player already: abort one or wait for a friend.",
          number(params, "count"),
        );
      }
      if (why === "games_per_connection") {
        return tn(
          "One connection may create {count} game: connect again to create more.",
          "One connection may create {count} games: connect again to create more.",
          number(params, "count"),
        );
      }
      if (why === "network_games") {
        return tn(
          "Your address plays {count} unfinished game already, as many as this server allows: finish it first.",
          "Your address plays {count} unfinished games already, as many as this server allows: finish one first.",
          number(params, "count"),
        );
      }
      if (why === "solver_games") {
        return tn(
          "Your address plays {count} unfinished game against the solver already, as many as this server allows: finish it first.",
          "Your address plays {count} unfinished games against the solver already, as many as this server allows: finish one first.",
          number(params, "count"),
        );
      }
      if (why === "starts") {
        return tn(
          "Your address starts games faster than this server allows: try again in {count} second.",
          "Your address starts games faster than this server allows: try again in {count} seconds.",
          number(params, "seconds"),
        );
      }
      if (why === "challenges") {
        return tn(
          "Your address has {count} open challenge in the lobby already: wait until it is taken, or withdraw it.",
          "Your address has {count} open challenges in the lobby already: wait until one is taken, or withdraw one.",
          number(params, "count"),
        );
      }
      if (why === "unreachable") {
        if (params.what === "lobby") return t("The part of the server that holds the lobby does not answer now: try again in a moment.");
        if (params.what === "solver") return t("The part of the server that runs the solver does not answer now: try again in a moment.");
        return t("The part of the server that holds this game does not answer now: try again in a moment.");
      }
      if (why === "directory") {
        return tn(
          "The site's game directory does not answer: try again in {count} second.",
          "The site's game directory does not answer: try again in {count} seconds.",
          number(params, "seconds"),
        );
      }
      if (why === "lobby_full") return t("The lobby holds as many challenges as it can; try again later.");
      if (why === "lobby_followers") return t("As many pages as the server allows follow the lobby; try again later.");
      if (why === "network_followers") {
        return tn(
          "{count} page of your network follows the lobby already, as many as this server allows: close one first.",
          "{count} pages of your network follow the lobby already, as many as this server allows: close one first.",
          number(params, "count"),
        );
      }
      return t("The server has as many games as it can hold; try again later.");
    case "out_of_time": return t("The time for this move ran out.");
    case "id_reused": return t("The server had another move under that move's id.");
    case "game_over": return t("The game is over.");
    case "not_started": return t("The game waits for its second player.");
    case "not_a_player": return t("You watch this game: only its players can do that.");
    case "rate_limited": return t("Too many messages or wrong codes: wait a moment and try again.");
    case "internal": return t("The server could not save that; nothing changed. Try again.");
    case "damaged": return t("The server could not load that game: its record there is damaged.");
    case "bad_token": return t("The server has no seat for this game's token (a token from another server?).");
    case "version": return t("The server speaks another version of the online protocol: use the same version of the game there.");
    case "full": return why === "spectators"
      ? t("As many people as the server allows watch this game already; try again later.")
      : t("Both seats of this game are taken.");
    case "expired": return why === "called_off" ? t("The host called this game off before anyone joined.")
      : t("This game expired: nobody joined it in time. Host a new one.");
    case "not_found": return t("The game is gone from the server.");
    case "bad_message":
      if (why === "solver_name") return t("That name reads as the solver's, which no person may take: choose another name.");
      return t("The server could not read a message from this program ({code}).", { code: error.code });
    default:
      return t("The server could not read a message from this program ({code}).", { code: error.code });
  }
}
