// @ts-check
// What the game screen shows, derived from the server's latest `state` alone: the position
// after every move, who moved what, whose turn it is, which tiles are free and which can be
// taken. Pure functions of the protocol's objects and the rules module (the websockets
// tutorial's connect4.js beside its thin connection module): no page, no socket.

import { freeCells, legalMoves, moveName, parseMove, parsePosition, play, playableCells } from "./rules.js";
/** @import { State } from "./socket.js" */

export const SHAPES = ["●", "◆"];

/**
 * Everything the screen shows for `state`; `pending` is how many of this seat's moves wait for
 * the server's `ack`. Throws an Error when the start or a move does not read.
 * @param {State} state @param {number} pending
 */
export function deriveView(state, pending) {
  let position = parsePosition(state.start);
  const history = [];
  for (const text of state.moves || []) {
    const move = parseMove(text);
    const mover = position.toMove;
    const after = play(position, /** @type {number[]} */ (move));
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

/** @typedef {ReturnType<typeof deriveView>} View */

export { nameOf } from "./server_words.js";
