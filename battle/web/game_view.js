// What the game screen shows, derived from the server's latest `state` alone: the position
// after every move, who moved what, whose turn it is, which tiles are free and which can be
// taken. Pure functions of the protocol's objects and the rules module (the websockets
// tutorial's connect4.js beside its thin connection module): no page, no socket.

import { freeCells, legalMoves, moveName, parseMove, parsePosition, play, playableCells } from "./rules.js";
import { t } from "./i18n.js";

export const SHAPES = ["●", "◆"];

/**
 * Everything the screen shows for `state`; `pending` is how many of this seat's moves wait for
 * the server's `ack`. Throws an Error when the start or a move does not read.
 */
export function deriveView(state, pending) {
  let position = parsePosition(state.start);
  const history = [];
  for (const text of state.moves || []) {
    const move = parseMove(text);
    const mover = position.toMove;
    const after = play(position, move);
    history.push({ text, mover, points: after.points });
    position = after.position;
  }
  const you = state.you;
  const playing = state.status === "playing";
  const waiting = pending > 0;
  const yourTurn = playing && you === state.to_move && !waiting;
  const last = history.length ? history[history.length - 1] : null;
  return {
    state, position, history, you, playing, pending: waiting, yourTurn,
    free: new Set(freeCells(position)),
    playable: playableCells(position),
    legal: legalMoves(position).map(moveName),
    lastMove: last ? parseMove(last.text) : null,
    lastMover: last ? last.mover : 1,
  };
}

/** A seat's name as the server has it, else "Player 1" or "Player 2" in the reader's language. */
export function nameOf(state, seat) {
  const found = (state.players || []).find((p) => p.seat === seat);
  return found?.name || t("Player {seat}", { seat });
}

// -- the result in words, from the reader's side (you win / you lose / a draw) -------------

const endings = () => ({
  no_pair: t("No pair is left"),
  resign: t("resigned"),
  time: t("ran out of time"),
});

/** One sentence for a finished game's `state`; `nameOf(state, seat)` gives a seat's name. */
export function resultText(state, nameOf) {
  const result = state.result || {};
  const scores = result.scores || state.scores || [0, 0];
  const score = `${scores[0]}-${scores[1]}`;
  if (result.reason === "aborted") return t("The game was called off; it counts for nothing.");
  if (result.reason === "expired") return t("Nobody joined in time: the game expired and counts for nothing.");
  const you = state.you;
  const winner = result.winner;
  const who = (seat) => (seat === you ? t("You") : nameOf(state, seat));
  let verdict;
  if (winner !== 1 && winner !== 2) verdict = t("A draw, {score}.", { score });
  else if (winner === you) verdict = t("You win, {score}.", { score });
  else verdict = t("{winner} wins, {score}.", { winner: nameOf(state, winner), score });
  if (result.reason === "resign") {
    const loser = 3 - winner;
    return t("{loser} {ending}. {verdict}", { loser: who(loser), ending: endings().resign, verdict });
  }
  if (result.reason === "time") {
    const loser = 3 - winner;
    return t("{loser} {ending}. {verdict}", { loser: who(loser), ending: endings().time, verdict });
  }
  return t("Game over: {reason}. {verdict}", { reason: endings().no_pair.toLowerCase(), verdict });
}
