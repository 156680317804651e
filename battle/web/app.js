// The page: reads its address (/, /join/CODE, /watch/CODE, /play/GAME), opens a session with
// the game server and shows the home screen or the game. Every action goes to the server,
// which checks it; the page shows only what the server's messages say (the rules module
// marks the free tiles and the pairs on offer).

import { BoardView } from "./board.js";
import { Session } from "./connection.js";
import { formatCode, normaliseCode } from "./codes.js";
import { freeCells, legalMoves, moveName, parseMove, parsePosition, play, playableCells } from "./rules.js";
import { allSeats, forgetSeat, seatForCode, seatForGame } from "./seats.js";
import { loadLanguage, t, tn, translatePage } from "./i18n.js";
import { resultText } from "./words.js";

const $ = (id) => document.getElementById(id);
const SHAPES = ["●", "◆"];
const NAME_KEY = "mahjong-battle.name";

const page = {
  session: null,
  purpose: null, // "host", "join", "watch", "resume"
  code: null,
  selected: null,
  board: null,
  clockOffset: 0, // server clock minus this clock, seconds
  view: null, // the derived view of the latest state
  note: "",
  ticker: null,
};

// -- start --------------------------------------------------------------------------------

async function start() {
  await loadLanguage(); // the page in the reader's language before anything is shown
  translatePage(document);
  page.board = new BoardView($("board"), pick);
  wireHome();
  wireGame();
  document.addEventListener("keydown", shortcut);
  window.addEventListener("popstate", () => route());
  page.ticker = setInterval(tick, 250);
  route();
}

function route() {
  const path = location.pathname;
  const [, kind, value] = path.split("/");
  if (page.session) page.session.close();
  page.session = null;
  if ((kind === "join" || kind === "watch") && value) {
    let code;
    try {
      code = normaliseCode(decodeURIComponent(value));
    } catch (error) {
      showHome(t("This link's code does not read: {message}. Check the link, or ask for a new one.", { message: error.message }));
      return;
    }
    if (kind === "join") {
      const seat = seatForCode(code);
      if (seat) {
        open("resume", { seat, code });
        return;
      }
      open("join", { opening: { type: "join", code, ...nameField() }, code });
    } else {
      open("watch", { opening: { type: "watch", code }, code });
    }
    return;
  }
  if (kind === "play" && value) {
    const seat = seatForGame(value);
    if (seat) {
      open("resume", { seat });
      return;
    }
    showHome(t("This browser holds no seat in that game. Open the invite link again, or host a new game."));
    return;
  }
  showHome("");
}

/** The name this browser hosted or joined with last ("" when none, or storage is off). */
function storedName() {
  try {
    return (localStorage.getItem(NAME_KEY) || "").trim();
  } catch {
    return "";
  }
}

function nameField() {
  const name = storedName();
  return name ? { name } : {};
}

function open(purpose, { opening = null, seat = null, code = null }) {
  page.purpose = purpose;
  page.code = code;
  page.selected = null;
  page.note = "";
  notice("");
  $("home").hidden = true;
  $("game").hidden = false;
  $("invite").hidden = true;
  document.body.removeAttribute("data-playable");
  const session = new Session({ opening, seat: seat ? { ...seat } : null, listener: heard,
    name: storedName() });
  page.session = session;
  session.start();
  renderGame();
}

// -- the home screen ----------------------------------------------------------------------

function showHome(message) {
  page.purpose = null;
  $("game").hidden = true;
  $("home").hidden = false;
  notice(message);
  setLink("home");
  const form = $("host-form");
  form.elements.name.value = storedName();
  const list = $("game-list");
  list.replaceChildren();
  const seats = allSeats();
  $("my-games").hidden = seats.length === 0;
  for (const seat of seats) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    const against = seat.opponent ? t("against {name}", { name: seat.opponent }) : t("waiting for a second player");
    const status = seat.status === "finished" ? t("over") : seat.status === "waiting" ? t("waiting") : t("going on");
    button.textContent = t("Game {against} ({status})", { against, status });
    button.addEventListener("click", () => go(`/play/${seat.game}`));
    const forget = document.createElement("button");
    forget.type = "button";
    forget.className = "quiet";
    forget.textContent = "Forget";
    forget.setAttribute("aria-label", t("Forget the game {against}", { against }));
    forget.addEventListener("click", () => {
      forgetSeat(seat.token);
      showHome("");
    });
    item.append(button, forget);
    list.append(item);
  }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

function wireHome() {
  $("host-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.target.elements;
    const name = form.name.value.trim();
    try {
      localStorage.setItem(NAME_KEY, name);
    } catch {
      // storage off: the name goes with this game only
    }
    let deal = { random: true };
    if (form.deal.value === "number") {
      const number = Number(form.number.value);
      if (!Number.isSafeInteger(number) || number < 0 || form.number.value.trim() === "") {
        notice("A deal number is a whole number from 0 up.");
        return;
      }
      deal = { number };
    }
    const opening = { type: "create", deal, first: form.first.value };
    if (form.move_seconds.value) opening.move_seconds = Number(form.move_seconds.value);
    if (name) opening.name = name;
    history.pushState(null, "", "/");
    open("host", { opening });
  });
  $("host-form").elements.number.addEventListener("input", () => {
    $("host-form").elements.deal.value = "number";
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const purpose = event.submitter?.value || "join";
    let code;
    try {
      code = normaliseCode(event.target.elements.code.value);
    } catch (error) {
      notice(error.message);
      return;
    }
    go(`/${purpose}/${formatCode(code)}`);
  });
}

// -- the server's messages ----------------------------------------------------------------

function heard(session, message) {
  if (session !== page.session) return;
  switch (message.type) {
    case "created":
    case "joined":
      history.replaceState(null, "", `/play/${message.game}`);
      break;
    case "rematch":
      page.selected = null;
      if (session.seat?.token) history.replaceState(null, "", `/play/${message.game}`);
      break;
    case "state":
      if (typeof message.seconds_left === "number" && typeof message.deadline === "number") {
        page.clockOffset = message.deadline - message.seconds_left - Date.now() / 1000;
      }
      if (session.seat?.token && location.pathname !== `/play/${message.game}`) {
        history.replaceState(null, "", `/play/${message.game}`);
      }
      break;
    case "moved":
      page.selected = null;
      break;
    case "error":
      refused(session, message);
      break;
    default:
      break;
  }
  renderGame();
}

function refused(session, message) {
  const ref = message.ref || {};
  const code = page.code ? formatCode(page.code.slice(0, 8)) : ""; // a link's secret begins with its code
  const words = {
    not_found: ref.type === "watch" ? t("No game has the watch code {code}. Check the link.", { code })
      : t("No game has the invite code {code}. Check the link, or ask your friend for a new one.", { code }),
    expired: t("This game expired or was called off before anyone joined: ask your friend to host a new one."),
    full: ref.type === "watch" ? t("As many people watch this game as may: try again later.")
      : t("Both seats of this game are taken already: ask the players for the watch link to follow it."),
    damaged: t("The server could not load that game: its record there is damaged."),
    bad_token: t("The server does not know this seat any more (a new server, or a game long gone)."),
    version: t("This page and the server speak different versions: {reason}", { reason: message.reason }),
  };
  if (ref.type === "resume" && (message.code === "bad_token" || message.code === "expired")) {
    forgetSeat(session.seat?.token);
  }
  if (words[message.code] && ["join", "watch", "resume", "create"].includes(ref.type)) {
    session.close();
    history.replaceState(null, "", "/");
    showHome(words[message.code]);
    return;
  }
  if (ref.type === "create") {
    session.close();
    showHome(t("The server refused the game: {reason}", { reason: message.reason }));
    return;
  }
  page.note = t("The server refused that: {reason}", { reason: message.reason });
}

// -- the game screen ----------------------------------------------------------------------

/** Everything the screen shows, derived from the session's latest state. */
function deriveView(state) {
  const start = parsePosition(state.start);
  let position = start;
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
  const pending = page.session.pending.length > 0;
  const yourTurn = playing && you === state.to_move && !pending;
  const free = new Set(freeCells(position));
  const playable = playableCells(position);
  const last = history.length ? history[history.length - 1] : null;
  return {
    state, position, history, you, playing, pending, yourTurn, free, playable,
    legal: legalMoves(position).map(moveName),
    lastMove: last ? parseMove(last.text) : null,
    lastMover: last ? last.mover : 1,
  };
}

function pick(cell) {
  const view = page.view;
  if (!view) return;
  if (!view.yourTurn) {
    if (view.you === "spectator") page.note = t("You are watching: the players move.");
    else page.note = view.playing ? (view.pending ? t("Your move is on its way to the server.") : t("It is not your turn yet."))
      : "";
    renderGame();
    return;
  }
  const kind = view.position.cells[cell];
  if (page.selected === cell) {
    page.selected = null;
  } else if (page.selected !== null && kind === view.position.cells[page.selected] && view.free.has(cell)) {
    const move = moveName(page.selected < cell ? [page.selected, cell] : [cell, page.selected]);
    page.selected = null;
    page.session.play(move);
    page.note = "";
  } else if (view.playable.has(cell)) {
    page.selected = cell;
    page.note = "";
  } else {
    page.note = view.free.has(cell) ? t("No other free tile of this kind: it cannot be taken now.")
      : t("Only the top-most and bottom-most tile of a column are free.");
  }
  renderGame();
}

function renderGame() {
  if (page.purpose === null) return;
  const session = page.session;
  setLink();
  const state = session.state;
  if (!state) {
    $("turn").textContent = page.purpose === "host" ? t("Creating your game…") : t("Waiting for the server…");
    return;
  }
  let view;
  try {
    view = deriveView(state);
  } catch (error) {
    notice(t("The server's game does not read here: {message}", { message: error.message }));
    return;
  }
  page.view = view;
  if (page.selected !== null && !view.playable.has(page.selected)) page.selected = null;
  const selectedKind = page.selected === null ? null : view.position.cells[page.selected];
  const twins = new Set(page.selected === null ? [] : [...view.free].filter(
    (cell) => cell !== page.selected && view.position.cells[cell] === selectedKind));
  page.board.render({
    cells: view.position.cells, free: view.free, playable: view.playable, selected: page.selected, twins,
    lastMove: view.lastMove, lastMover: view.lastMover, active: view.yourTurn,
  });
  renderPlayers(view);
  renderTurn(view);
  renderInvite(view);
  renderOffer(view);
  renderActions(view);
  renderMoves(view);
  $("board").classList.toggle("your-turn", view.yourTurn);
  if (view.playing && !document.body.dataset.playable) {
    document.body.dataset.playable = "1";
    performance.mark("playable");
  }
  document.body.dataset.ply = String(view.history.length);
  document.body.dataset.status = state.status;
  document.body.dataset.game = state.game;
}

function nameOf(state, seat) {
  const found = (state.players || []).find((p) => p.seat === seat);
  return found?.name || t("Player {seat}", { seat });
}

function renderPlayers(view) {
  const { state } = view;
  for (const seat of [1, 2]) {
    const card = $(`player-${seat}`);
    const found = (state.players || []).find((p) => p.seat === seat) || {};
    const you = state.you === seat;
    card.querySelector(".name").textContent = nameOf(state, seat) + (you ? " " + t("(you)") : "");
    card.querySelector(".score").textContent = tn("{count} point", "{count} points", state.scores?.[seat - 1] ?? 0);
    const presence = { connected: t("online"), away: t("away"), open: t("seat open") }[found.presence] || "";
    card.querySelector(".presence").textContent = you ? "" : presence;
    card.classList.toggle("to-move", view.playing && state.to_move === seat);
    card.classList.toggle("away", found.presence === "away");
    const turn = view.playing && state.to_move === seat ? ", " + t("to move") : "";
    card.setAttribute("aria-label", t("Player {seat}", { seat }) + ", " + (SHAPES[seat - 1] === "●" ? t("circle") : t("diamond")) + ": "
      + `${nameOf(state, seat)}${you ? " " + t("(you)") : ""}, `
      + tn("{count} point", "{count} points", state.scores?.[seat - 1] ?? 0) + `${turn}, ${you ? t("here") : presence}`);
  }
}

function clockWords(state) {
  if (!state.move_seconds || typeof state.deadline !== "number" || state.status !== "playing") return "";
  const left = Math.max(0, Math.ceil(state.deadline - page.clockOffset - Date.now() / 1000));
  const minutes = Math.floor(left / 60);
  const shown = left >= 3600 ? `${Math.floor(left / 3600)} h ${Math.floor((left % 3600) / 60)} min`
    : `${minutes}:${String(left % 60).padStart(2, "0")}`;
  return left > 0 ? ` · ${shown} left` : " · time is up";
}

function renderTurn(view) {
  const { state } = view;
  let words;
  if (state.status === "waiting") {
    words = state.you === "spectator" ? t("Waiting for the second player.") : t("Waiting for your opponent to open the link…");
  } else if (state.status === "finished") {
    words = resultText(state, nameOf);
  } else if (view.pending) {
    words = t("Your move is on its way…");
  } else if (view.yourTurn) {
    words = t("Your turn {you}: pick a tile, then its twin.{state}", { you: SHAPES[state.you - 1], state: clockWords(state) });
  } else {
    words = t("{to_move} {to_move2} to move.{state}", { to_move: nameOf(state, state.to_move), to_move2: SHAPES[state.to_move - 1], state: clockWords(state) });
  }
  if (page.note) words += ` ${page.note}`;
  $("turn").textContent = words;
  $("turn").classList.toggle("finished", state.status === "finished");
}

function inviteLink(code) {
  return `${location.origin}/join/${formatCode(code)}`;
}

function renderInvite(view) {
  const { state } = view;
  const show = state.status === "waiting" && state.you !== "spectator" && Boolean(state.invite);
  $("invite").hidden = !show;
  if (!show) return;
  const link = inviteLink(state.invite_secret || state.invite); // the secret: a link nobody can guess
  $("invite-link").textContent = link;
  $("invite-link").href = link;
  $("invite-code").textContent = formatCode(state.invite);
  $("watch-code").textContent = formatCode(state.watch || "");
}

function renderOffer(view) {
  const { state } = view;
  const offers = state.offers || {};
  const player = state.you === 1 || state.you === 2;
  const opponent = player ? 3 - state.you : null;
  let text = "";
  if (player && offers.takeback === opponent && view.playing) {
    text = t("{opponent} asks to take back their last move. Allow it?", { opponent: nameOf(state, opponent) });
  } else if (player && offers.rematch === opponent && !state.rematch) {
    text = t("{opponent} offers a rematch: the same deal, sides swapped. Play it?", { opponent: nameOf(state, opponent) });
  }
  $("offer").hidden = !text;
  $("offer").dataset.kind = offers.takeback === opponent ? "takeback" : "rematch";
  $("offer-text").textContent = text;
}

function renderActions(view) {
  const { state } = view;
  const player = state.you === 1 || state.you === 2;
  const offers = state.offers || {};
  const lastMine = view.history.length > 0 && view.history[view.history.length - 1].mover === state.you;
  const show = (id, visible, enabled = true) => {
    $(id).hidden = !visible;
    $(id).disabled = !enabled;
  };
  show("takeback", player && view.playing && lastMine, offers.takeback !== state.you);
  $("takeback").textContent = offers.takeback === state.you ? t("Take back asked…") : t("Take back (T)");
  const unplayed = ["aborted", "expired"].includes(state.result?.reason);
  const opponentOffered = player && offers.rematch === 3 - state.you; // the offer box answers that one
  show("rematch", player && state.status === "finished" && !unplayed && !state.rematch && !opponentOffered,
    offers.rematch !== state.you);
  $("rematch").textContent = offers.rematch === state.you ? t("Rematch offered…") : t("Rematch");
  show("abort", player && view.playing && view.history.length < 2);
  show("resign", player && view.playing);
  show("leave", true);
}

function renderMoves(view) {
  const list = $("moves");
  const items = view.history.map((entry, index) => {
    const item = document.createElement("li");
    item.textContent = `${index + 1}. ${SHAPES[entry.mover - 1]} ${entry.text} (${entry.points})`;
    return item;
  });
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

// -- actions ------------------------------------------------------------------------------

function send(message) {
  if (!page.session.send(message)) {
    page.note = t("Not connected: try again when the connection is back.");
    renderGame();
  }
}

function answerOffer(accept) {
  if ($("offer").hidden) return;
  if ($("offer").dataset.kind === "takeback") send({ type: "takeback_answer", accept });
  else send({ type: accept ? "rematch_accept" : "rematch_decline" });
}

function wireGame() {
  $("takeback").addEventListener("click", () => send({ type: "takeback_request" }));
  $("rematch").addEventListener("click", () => send({ type: "rematch_offer" }));
  $("abort").addEventListener("click", () => send({ type: "abort" }));
  $("abort-waiting").addEventListener("click", () => send({ type: "abort" }));
  $("offer-yes").addEventListener("click", () => answerOffer(true));
  $("offer-no").addEventListener("click", () => answerOffer(false));
  $("leave").addEventListener("click", () => {
    page.session?.close();
    go("/");
  });
  $("resign").addEventListener("click", () => $("confirm").showModal());
  $("confirm-no").addEventListener("click", () => $("confirm").close());
  $("confirm-yes").addEventListener("click", () => {
    $("confirm").close();
    send({ type: "resign" });
  });
  $("copy-link").addEventListener("click", copyLink);
}

async function copyLink() {
  const link = $("invite-link").textContent;
  try {
    await navigator.clipboard.writeText(link);
    page.note = t("Link copied: paste it to your friend.");
  } catch {
    // no clipboard API on plain http from another machine: select the link for Ctrl+C
    const range = document.createRange();
    range.selectNodeContents($("invite-link"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    page.note = t("The link is selected: copy it with Ctrl+C (or long-press on a phone).");
  }
  renderGame();
}

function shortcut(event) {
  if (page.purpose === null || event.ctrlKey || event.metaKey || event.altKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) || $("confirm").open) return;
  const key = event.key.toLowerCase();
  if (key === "t" && !$("takeback").hidden && !$("takeback").disabled) send({ type: "takeback_request" });
  else if (key === "y") answerOffer(true);
  else if (key === "n") answerOffer(false);
  else if (key === "escape" && page.selected !== null) {
    page.selected = null;
    renderGame();
  } else return;
  event.preventDefault();
}

// -- the connection line and the clock ----------------------------------------------------

function setLink(home) {
  const session = page.session;
  let words;
  let mark;
  let kind;
  if (home === "home" || !session) {
    words = t("Not in a game");
    mark = "○";
    kind = "quiet";
  } else {
    const link = session.link;
    const wait = Math.max(0, Math.ceil(((link.retryAt || 0) - Date.now()) / 1000));
    if (link.state === "connected") [words, mark, kind] = [t("Connected"), "●", "good"];
    else if (link.state === "retrying") {
      const what = session.everConnected ? t("Connection lost") : t("The server does not answer");
      [words, mark, kind] = [t("{what}: retrying in {wait} s", { what, wait }), "▲", "warn"];
    } else if (link.state === "closed") [words, mark, kind] = [t("Closed: {detail}", { detail: link.detail }), "■", "error"];
    else [words, mark, kind] = [t("Connecting…"), "○", "quiet"];
  }
  $("link-text").textContent = words;
  document.querySelector(".link-mark").textContent = mark;
  $("link").dataset.kind = kind;
  $("link").dataset.state = session?.link.state || "none";
}

function tick() {
  if (!page.session) return;
  if (page.session.link.state === "retrying") setLink();
  if (page.view?.playing && page.view.state.move_seconds) renderTurn(page.view);
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

start();
