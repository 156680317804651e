// @ts-check
// The move's clock: the server's deadline on this machine's clock. A `state` says both when the
// turn runs out (`deadline`, the server's clock) and how long is left as it was sent
// (`seconds_left`); their difference is how far the two clocks are apart, so a wrong clock on
// the player's machine shows the right time left.

import { t } from "./i18n.js";
/** @import { State } from "./socket.js" */

let offset = 0; // the server's clock minus this one, seconds

/** Learn the clocks' difference from a `state` that carries both figures. @param {State} state */
export function setClock(state) {
  if (typeof state.seconds_left === "number" && typeof state.deadline === "number") {
    offset = state.deadline - state.seconds_left - Date.now() / 1000;
  }
}

/** "0:41 left for this move." (or "The time for this move is up.") for a game with a time per
 * move, "" for one without: a whole sentence, to follow the turn's. @param {State} state */
export function clockWords(state) {
  if (!state.move_seconds || typeof state.deadline !== "number" || state.status !== "playing") return "";
  const left = Math.max(0, Math.ceil(state.deadline - offset - Date.now() / 1000));
  const minutes = Math.floor(left / 60);
  const time = left >= 3600 ? `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`
    : `${minutes}:${String(left % 60).padStart(2, "0")}`;
  return left > 0 ? t("{time} left for this move.", { time }) : t("The time for this move is up.");
}

