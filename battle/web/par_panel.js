// @ts-check
// A finished game's par on the game screen: the final margin of the player who moves first under
// perfect play, and each player's result against it (as the window's result card says them), from
// the server's `par_result`. A deal no catalogue knows is worked out by the server's solver while
// the game is played; the card says where that stands until the par comes.

import { $ } from "./dom.js";
import { nameOf } from "./game_view.js";
import { t, tn } from "./i18n.js";
import { parsePosition } from "./rules.js";
import { signed } from "./server_words.js";
/** @import { View } from "./game_view.js" */
/** @import { Message, State } from "./socket.js" */

/** Show the par card for a finished, played game whose par news says something; hide it otherwise.
 * @param {View} view @param {Message | null} par */
export function renderPar(view, par) {
  const state = view.state;
  const played = state.status === "finished" && (state.moves || []).length > 0
    && !["aborted", "expired"].includes(/** @type {string} */ (state.result?.reason));
  const card = $("par-card");
  if (!played || !par || par.game !== state.game || par.status === "none") {
    card.hidden = true;
    return;
  }
  $("par-line").textContent = parText(state, par);
  card.hidden = false;
}

/** The par news in words, as of now. @param {State} state @param {Message} par */
export function parText(state, par) {
  if (par.status === "known") return knownText(state, par.value);
  if (par.status === "working") {
    const where = par.place === null || par.place === undefined || par.place === 0
      ? t("Par: being worked out by the server's solver.")
      : t("Par: waiting for the server's solver, place {place} in its queue.", { place: par.place });
    return withLeast(state, par, where);
  }
  if (par.status === "unproved") {
    return withLeast(state, par, t("Par: not proved: this deal takes the server's solver longer than it spends on one."));
  }
  const again = againIn(par.retry_after);
  if (par.why === "per_hour") {
    return t("Par: not worked out yet: your network has asked for as many new deals' pars as it may this hour.")
      + " " + again;
  }
  return t("Par: not worked out yet: the server's solver has as many pars waiting as it takes.") + " " + again;
}

/** @param {State} state @param {number} value */
function knownText(state, value) {
  const first = parsePosition(state.start).toMove;
  const firstName = nameOf(state, first);
  const sentence = value === 0 ? t("Par: even (a draw under perfect play).")
    : t("Par: {value} for {name} under perfect play.", { value: signed(value), name: firstName });
  const scores = state.scores || [0, 0];
  const difference = scores[0] - scores[1] - (first === 1 ? value : -value);
  const players = [1, 2].map((seat) => `${nameOf(state, seat)}: ${againstWords(seat === 1 ? difference : -difference)}`);
  return `${sentence} ${players.join("; ")}.`;
}

/** ``words``, then what the search has proved so far when the news says it: the least the first
 * mover's final margin can be. @param {State} state @param {Message} par @param {string} words */
function withLeast(state, par, words) {
  const value = par.at_least;
  if (value === null || value === undefined) return words;
  const least = value === 0
    ? t("So far it is at least even.")
    : t("So far it is at least {value} for {name}.", { value: signed(value), name: nameOf(state, parsePosition(state.start).toMove) });
  return `${words} ${least}`;
}

/** @param {number} difference */
function againstWords(difference) {
  if (difference === 0) return t("on par");
  const count = Math.abs(difference);
  return difference > 0
    ? tn("{count} point better than par", "{count} points better than par", count)
    : tn("{count} point worse than par", "{count} points worse than par", count);
}

/** @param {number | null} [seconds] */
function againIn(seconds) {
  const wait = Math.max(1, Math.ceil(seconds ?? 60));
  if (wait < 120) return tn("The page asks again in {count} second.", "The page asks again in {count} seconds.", wait);
  const minutes = Math.round(wait / 60);
  return tn("The page asks again in {count} minute.", "The page asks again in {count} minutes.", minutes);
}
