// @ts-check
// The game screen's panels drawn from a view (game_view.js): the player cards, the turn line,
// an opponent's offer, the action buttons and the move list. They write the page and read
// nothing back; game_screen.js decides what they are given.

import { $ } from "./dom.js";
import { SHAPES } from "./game_view.js";
import { nameOf, resultText } from "./server_words.js";
import { clockWords } from "./clock.js";
import { t, tn } from "./i18n.js";
/** @import { Line } from "./connection.js" */
/** @import { View } from "./game_view.js" */
/** @import { Player } from "./socket.js" */

/** The player cards; `solverSeat` is the solver's seat in a game against it (never online or away:
 * it lives on the server), else null. @param {View} view @param {number | null} solverSeat */
export function renderPlayers(view, solverSeat = null) {
  const { state } = view;
  for (const seat of [1, 2]) {
    const card = $(`player-${seat}`);
    /** @type {Partial<Player>} */
    const found = (state.players || []).find((p) => p.seat === seat) || {};
    const you = state.you === seat;
    const solver = seat === solverSeat;
    /** @type {Element} */ (card.querySelector(".name")).textContent = nameOf(state, seat) + (you ? " " + t("(you)") : "");
    /** @type {Element} */ (card.querySelector(".score")).textContent = tn("{count} point", "{count} points",
      state.scores?.[seat - 1] ?? 0);
    const presence = solver ? "" : /** @type {Record<string, string>} */ ({ connected: t("online"), away: t("away"),
      open: t("seat open") })[/** @type {string} */ (found.presence)] || "";
    /** @type {Element} */ (card.querySelector(".presence")).textContent = you ? "" : presence;
    card.classList.toggle("to-move", view.playing && state.to_move === seat);
    card.classList.toggle("away", !solver && found.presence === "away");
    const points = tn("{count} point", "{count} points", state.scores?.[seat - 1] ?? 0);
    const shape = SHAPES[seat - 1] === "●" ? t("circle") : t("diamond");
    const name = nameOf(state, seat);
    const toMove = view.playing && state.to_move === seat;
    let label;
    if (solver) {
      label = toMove ? t("Player {seat}, {shape}: {name}, {points}, to move.", { seat, shape, name, points })
        : t("Player {seat}, {shape}: {name}, {points}.", { seat, shape, name, points });
    } else if (you) {
      label = toMove ? t("Player {seat}, {shape}: {name} (you), {points}, to move.", { seat, shape, name, points })
        : t("Player {seat}, {shape}: {name} (you), {points}.", { seat, shape, name, points });
    } else {
      label = toMove ? t("Player {seat}, {shape}: {name}, {points}, to move, {presence}.", { seat, shape, name, points, presence })
        : t("Player {seat}, {shape}: {name}, {points}, {presence}.", { seat, shape, name, points, presence });
    }
    card.setAttribute("aria-label", label);
  }
}

/**
 * The turn line: whose turn, the clock, the result; `note` (a refusal, a hint) after it. `lineUp`
 * says whether the line to the server is up: while it is down, moves wait, and the line says so.
 * @param {View} view @param {string} note @param {boolean} lineUp
 */
export function renderTurn(view, note, lineUp) {
  const { state } = view;
  let words;
  if (state.status === "waiting") {
    words = state.you === "spectator" ? t("Waiting for the second player.") : t("Waiting for your opponent to open the link…");
  } else if (state.status === "finished") {
    words = resultText(state);
  } else if (view.pending) {
    words = lineUp ? t("Your move is on its way…") : waitingMove();
  } else if (view.yourTurn) {
    words = joined(t("Your turn {you}: pick a tile, then its twin.", { you: SHAPES[/** @type {number} */ (state.you) - 1] }),
      clockWords(state));
  } else {
    const mover = /** @type {number} */ (state.to_move); // someone moves while the game is played
    words = joined(t("{name} {shape} to move.", { name: nameOf(state, mover), shape: SHAPES[mover - 1] }), clockWords(state));
  }
  if (!lineUp && view.playing && !view.pending && view.you !== "spectator") {
    words += " " + t("The line to the server is down: moves are sent when it is back.");
  }
  if (note) words += ` ${note}`;
  $("turn").textContent = words;
  $("turn").classList.toggle("finished", state.status === "finished");
}

/** Whole sentences one after another. @param {...string} sentences */
function joined(...sentences) {
  return sentences.filter(Boolean).join(" ");
}

/** Why a move sent while the line is down has not arrived yet. */
export function waitingMove() {
  return t("Your move waits for the line to the server: it is sent as soon as the line is back.");
}

/** @param {View} view */
export function renderOffer(view) {
  const { state } = view;
  const offers = state.offers || {};
  const player = state.you === 1 || state.you === 2;
  const opponent = player ? 3 - /** @type {number} */ (state.you) : null;
  let text = "";
  if (player && offers.takeback === opponent && view.playing) {
    text = t("{opponent} asks to take back their last move. Allow it?",
      { opponent: nameOf(state, /** @type {number} */ (opponent)) });
  } else if (player && offers.rematch === opponent && !state.rematch) {
    text = t("{opponent} offers a rematch: the same deal, sides swapped. Play it?",
      { opponent: nameOf(state, /** @type {number} */ (opponent)) });
  }
  $("offer").hidden = !text;
  $("offer").dataset.kind = offers.takeback === opponent ? "takeback" : "rematch";
  $("offer-text").textContent = text;
}

/** The buttons that fit the state; `refusedTakeback` is the ply whose takeback the opponent refused.
 * @param {View} view @param {number | null} refusedTakeback */
export function renderActions(view, refusedTakeback) {
  const { state } = view;
  const player = state.you === 1 || state.you === 2;
  const offers = state.offers || {};
  const lastMine = view.history.length > 0 && view.history[view.history.length - 1].mover === state.you;
  /** @param {string} id @param {boolean} visible */
  const show = (id, visible, enabled = true) => {
    $(id).hidden = !visible;
    /** @type {HTMLButtonElement} */ ($(id)).disabled = !enabled;
  };
  show("takeback", player && view.playing && lastMine,
    offers.takeback !== state.you && refusedTakeback !== view.history.length);
  $("takeback").textContent = offers.takeback === state.you ? t("Take back asked…") : t("Take back (T)");
  const unplayed = ["aborted", "expired"].includes(/** @type {string} */ (state.result?.reason));
  const opponentOffered = player && offers.rematch === 3 - /** @type {number} */ (state.you); // the offer box answers that one
  show("rematch", player && state.status === "finished" && !unplayed && !state.rematch && !opponentOffered,
    offers.rematch !== state.you);
  $("rematch").textContent = offers.rematch === state.you ? t("Rematch offered…") : t("Rematch");
  show("abort", player && view.playing && view.history.length < 2);
  show("resign", player && view.playing);
  show("leave", true);
}

/** @param {View} view */
export function renderMoves(view) {
  const list = $("moves");
  const items = view.history.map((entry, index) => {
    const item = document.createElement("li");
    item.textContent = `${index + 1}. ${SHAPES[entry.mover - 1]} ${entry.text} (${entry.points})`;
    return item;
  });
  list.replaceChildren(...items);
  scrollToNewest();
}

/** The move list scrolled to its end: the last move in sight whatever the screen. */
export function scrollToNewest() {
  const list = $("moves");
  list.scrollTop = list.scrollHeight;
}

// The status line at the top right: the state of the line to the server in words, a shape that
// says it as well as the colour does, and `data-state` for tests and styles.

/** Show the line of `socket` (a GameSocket), or "Not in a game" for null. @param {{line: Line} | null} socket */
export function renderLine(socket) {
  let words;
  let mark;
  let kind;
  if (!socket) {
    [words, mark, kind] = [t("Not in a game"), "○", "quiet"];
  } else {
    const line = socket.line;
    const wait = Math.max(0, Math.ceil(((line.retryAt || 0) - Date.now()) / 1000));
    if (line.state === "connected") [words, mark, kind] = [t("Connected"), "●", "good"];
    else if (line.state === "silent") {
      [words, mark, kind] = [t("No answer from the server for {seconds} s: the line seems down", { seconds: line.silentFor() }),
        "▲", "warn"];
    } else if (line.state === "retrying") {
      const what = line.everConnected ? t("Connection lost") : t("The server does not answer");
      [words, mark, kind] = [t("{what}: retrying in {wait} s", { what, wait }), "▲", "warn"];
    } else if (line.state === "resting") {
      [words, mark, kind] = [t("Idle: the line opens again when this page asks the server"), "○", "quiet"];
    } else if (line.state === "closed") [words, mark, kind] = [t("Closed: {detail}", { detail: line.detail }), "■", "error"];
    else [words, mark, kind] = [t("Connecting…"), "○", "quiet"];
  }
  $("link-text").textContent = words;
  /** @type {Element} */ (document.querySelector(".link-mark")).textContent = mark;
  $("link").dataset.kind = kind;
  $("link").dataset.state = socket?.line.state || "none";
}
