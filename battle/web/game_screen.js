// @ts-check
// The game screen: one game through one GameSocket, as a player (host, joiner, a seat held in
// this browser) or a spectator. It turns the player's clicks and keys into the socket's
// messages and the socket's news into the screen (`handlers`); the server checks every action, and the
// screen shows only what its messages say (the rules module marks the free tiles and pairs).

import { $, analysisAddress, keepGroup, notice, setAddress } from "./dom.js";
import { BoardView } from "./board.js";
import { GameSocket } from "./socket.js";
import { InvitePanel } from "./invite_panel.js";
import { NamePanel } from "./name_panel.js";
import { Alerts, news } from "./alerts.js";
import { deriveView, nameOf } from "./game_view.js";
import { setClock } from "./clock.js";
import { formatCode } from "./codes.js";
import { MAX_NAME_LENGTH, forgetSeat, storedName, storedNameTooLong } from "./seats.js";
import { moveName, parseCell, whatOpens } from "./rules.js";
import {
  renderActions, renderLine, renderMoves, renderOffer, renderPlayers, renderTurn, scrollToNewest, waitingMove,
} from "./game_panels.js";
import {
  RetryClock, downloadRecord, openingWords, refusalWords, renderSolverPanel, secondsUntil, thinkingWords,
} from "./solver_panel.js";
import { t } from "./i18n.js";
import { refusalText } from "./server_words.js";
import { renderPar } from "./par_panel.js";
/** @import { Router } from "./app.js" */
/** @import { View } from "./game_view.js" */
/** @import { Seat } from "./seats.js" */
/** @import { Handler, Handlers, Message, State } from "./socket.js" */

export class GameScreen {
  /** @param {Router} app */
  constructor(app) {
    this.app = app;
    this.element = $("game");
    this.socket = null;
    this.purpose = null; // "host", "join", "watch", "resume"
    /** @type {string | null} */
    this.code = null;
    /** @type {number | null} */
    this.selected = null;
    this.view = null;
    this.note = "";
    // the solver's latest refusal, counted down on the turn line (a refused move's: said until that move comes)
    this.retry = new RetryClock(() => this.view && renderTurn(this.view, this.turnNote(this.view), this.lineUp()));
    this.shown = null; // the state the screen showed last: what changed since is news
    this.refusedTakeback = null; // the ply whose takeback the opponent said no to
    this.board = new BoardView($("board"), (cell) => this.pick(cell));
    this.invite = new InvitePanel();
    this.names = new NamePanel((name) => {
      const sent = /** @type {GameSocket} */ (this.socket).nameSeat(name);
      if (!sent) this.say(t("Not connected: try again when the connection is back."));
      return sent;
    });
    this.alerts = new Alerts();
    this.wire();
    document.addEventListener("keydown", (event) => this.shortcut(event));
    // a list that changes size (a turned phone, a resized window) shows its newest move still
    new ResizeObserver(() => scrollToNewest()).observe($("moves"));
    setInterval(() => this.tick(), 250); // the clock's seconds and the line's countdown
  }

  /** Open a game: `opening` is the first game message, or `seat` a seat this browser holds.
   * @param {string} purpose @param {{opening?: Message | null, seat?: Seat | null, code?: string | null}} options */
  show(purpose, { opening = null, seat = null, code = null }) {
    this.leave();
    this.purpose = purpose;
    this.code = code;
    this.selected = null;
    this.view = null;
    this.shown = null;
    this.refusedTakeback = null;
    this.note = "";
    this.retry.clear();
    notice(storedNameTooLong() ? t("The name kept in this browser is longer than {count} characters: this game uses its first {count}, \"{name}\".",
      { count: MAX_NAME_LENGTH, name: storedName() }) : "");
    this.element.hidden = false;
    this.invite.hide();
    this.names.hide();
    if (purpose === "join" || purpose === "resume") this.names.open();
    document.body.removeAttribute("data-playable");
    this.socket = new GameSocket({
      opening, seat: seat ? { ...seat } : null, name: storedName(),
      handlers: this.handlers(), after: () => this.render(),
    });
    this.socket.start();
    this.render();
  }

  /** Close the game's connection (the seat stays kept in this browser). */
  leave() {
    this.retry.clear();
    if (this.socket) this.socket.close(t("left the game"));
    this.socket = null;
    this.purpose = null;
  }

  hide() {
    this.leave();
    this.element.hidden = true;
    renderLine(null);
  }

  // -- the socket's news ------------------------------------------------------------------

  /** The screen is drawn after every message and change of the line (`after`) but those that leave it.
   * @returns {Handlers<GameSocket>} */
  handlers() {
    /** @type {Handler<GameSocket>} */
    const seated = (_socket, message) => {
      setAddress(`/play/${message.game}`);
    };
    return {
      created: seated,
      joined: seated,
      solver_created: seated,
      record: (_socket, message) => {
        downloadRecord(message);
      },
      review_result: (_socket, message) => {
        this.app.go(`/review/${message.review}`);
        return true;
      },
      solver_refused: (_socket, message) => {
        if (message.what === "game") {
          setAddress("/");
          this.app.showHome(refusalWords(message));
          return true;
        }
        this.retry.hold(message, this.askAgain(message.what));
      },
      hint_result: () => {
        this.retry.clear();
      },
      rematch: (socket, message) => {
        this.selected = null;
        if (socket.seat?.token) setAddress(`/play/${message.game}`);
      },
      elsewhere: (_socket, message) => {
        keepGroup(message.group); // a reload connects straight to the group that holds the game
      },
      state: (socket, message) => {
        setClock(/** @type {State} */ (message));
        if (socket.seat?.token && location.pathname !== `/play/${message.game}`) {
          setAddress(`/play/${message.game}`);
        }
      },
      moved: (socket, message) => {
        this.selected = null;
        if (message.seat === socket.solver?.seat && this.retry.refusal?.what === "move") this.retry.clear();
        // a hint refused for the position before this move is not asked again for the next one
        if (this.retry.refusal?.what === "hint") this.retry.clear();
      },
      error: (socket, message) => {
        if (this.refused(socket, message)) return true;
      },
    };
  }

  /** What asks a refused hint or review once more when its retry_after has passed (null for the
   * solver's move: the server asks for it again). @param {string} what */
  askAgain(what) {
    const socket = /** @type {GameSocket} */ (this.socket);
    if (what === "hint") return () => socket === this.socket && this.askHint();
    if (what === "review") return () => socket === this.socket && socket.askReview();
    return null;
  }

  /** A refusal in words; true when it ends the game screen (the home screen says it). */
  /** @param {GameSocket} socket @param {Message} message */
  refused(socket, message) {
    const ref = message.ref || {};
    const code = this.code ? formatCode(this.code.slice(0, 8)) : ""; // a link's secret begins with its code
    /** @type {Record<string, string>} */
    const words = {
      not_found: ref.type === "watch" ? t("No game has the watch code {code}. Check the link.", { code })
        : t("No game has the invite code {code}. Check the link, or ask your friend for a new one.", { code }),
      expired: t("This game expired or was called off before anyone joined: ask your friend to host a new one."),
      full: ref.type === "watch" ? t("As many people watch this game as may: try again later.")
        : t("Both seats of this game are taken already: ask the players for the watch link to follow it."),
      damaged: t("The server could not load that game: its record there is damaged."),
      bad_token: t("The server does not know this seat any more (a new server, or a game long gone)."),
      version: refusalText(message),
    };
    if (ref.type === "resume" && (message.code === "bad_token" || message.code === "expired")) {
      forgetSeat(socket.seat?.token);
    }
    if (words[message.code] && ["join", "watch", "resume", "create"].includes(ref.type)) {
      setAddress("/");
      this.app.showHome(words[message.code]);
      return true;
    }
    if (ref.type === "create" || ref.type === "challenge" || ref.type === "solver_game") {
      this.app.showHome(refusalText(message));
      return true;
    }
    if (ref.type === "device") { // the game goes on: only this browser's statistics miss it
      this.note = message.params?.why === "device_full"
        ? t("This game is not counted in this browser's statistics: they hold as many games as the server keeps for one browser.")
        : t("This game is not counted in this browser's statistics: your network began too many new ones within the hour.");
      return false;
    }
    this.note = refusalText(message, socket.state);
    return false;
  }

  // -- the player's input -----------------------------------------------------------------

  /** @param {number} cell */
  pick(cell) {
    const view = this.view;
    if (!view) return;
    if (!view.yourTurn) {
      if (view.you === "spectator") this.note = t("You are watching: the players move.");
      else if (!view.playing) this.note = "";
      else if (!view.pending) this.note = t("It is not your turn yet.");
      else this.note = this.lineUp() ? t("Your move is on its way to the server.") : waitingMove();
      this.render();
      return;
    }
    const kind = view.position.cells[cell];
    if (this.selected === cell) {
      this.selected = null;
    } else if (this.selected !== null && kind === view.position.cells[this.selected] && view.free.has(cell)) {
      const move = moveName(this.selected < cell ? [this.selected, cell] : [cell, this.selected]);
      this.selected = null;
      /** @type {GameSocket} */ (this.socket).play(move);
      this.note = "";
    } else if (view.playable.has(cell)) {
      this.selected = cell;
      this.note = "";
    } else {
      this.note = view.free.has(cell) ? t("No other free tile of this kind: it cannot be taken now.")
        : t("Only the top-most and bottom-most tile of a column are free.");
    }
    this.render();
  }

  /** Send with `act(socket)`; when the line is down nothing goes, and the turn line says so.
   * @param {(socket: GameSocket) => boolean} act */
  send(act) {
    if (!act(/** @type {GameSocket} */ (this.socket))) this.say(t("Not connected: try again when the connection is back."));
  }

  /** @param {boolean} accept */
  answerOffer(accept) {
    if ($("offer").hidden) return;
    if ($("offer").dataset.kind === "takeback") this.send((socket) => socket.answerTakeback(accept));
    else this.send((socket) => socket.answerRematch(accept));
  }

  wire() {
    $("takeback").addEventListener("click", () => this.send((socket) => socket.requestTakeback()));
    $("rematch").addEventListener("click", () => this.send((socket) => socket.offerRematch()));
    $("abort").addEventListener("click", () => this.send((socket) => socket.abort()));
    $("abort-waiting").addEventListener("click", () => this.send((socket) => socket.abort()));
    $("offer-yes").addEventListener("click", () => this.answerOffer(true));
    $("offer-no").addEventListener("click", () => this.answerOffer(false));
    $("leave").addEventListener("click", () => this.app.go("/"));
    $("record").addEventListener("click", () => this.send((socket) => socket.askRecord()));
    $("review-game").addEventListener("click", () => this.send((socket) => socket.askReview()));
    $("analyse").addEventListener("click", () => {
      const view = this.view;
      if (view) this.app.go(analysisAddress(view.state.start, view.state.moves || []));
    });
    $("hint").addEventListener("click", () => this.askHint());
    // what a move opens: on pointing at a tile, or a long press (a touch screen's context menu)
    $("board").addEventListener("pointerover", (event) => this.showOpening(event.target));
    $("board").addEventListener("contextmenu", (event) => {
      if (this.showOpening(event.target)) event.preventDefault();
    });
    $("resign").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("confirm")).showModal());
    $("confirm-no").addEventListener("click", () => /** @type {HTMLDialogElement} */ ($("confirm")).close());
    $("confirm-yes").addEventListener("click", () => {
      /** @type {HTMLDialogElement} */ ($("confirm")).close();
      this.send((socket) => socket.resign());
    });
  }

  /** @param {KeyboardEvent} event */
  shortcut(event) {
    if (this.purpose === null || event.ctrlKey || event.metaKey || event.altKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(/** @type {Element} */ (event.target).tagName)
      || /** @type {HTMLDialogElement} */ ($("confirm")).open) return;
    const key = event.key.toLowerCase();
    if (key === "t" && !$("takeback").hidden && !/** @type {HTMLButtonElement} */ ($("takeback")).disabled) {
      this.send((socket) => socket.requestTakeback());
    } else if (key === "h" && !$("hint").hidden && !/** @type {HTMLButtonElement} */ ($("hint")).disabled) this.askHint();
    else if (key === "y") this.answerOffer(true);
    else if (key === "n") this.answerOffer(false);
    else if (key === "escape" && this.selected !== null) {
      this.selected = null;
      this.render();
    } else return;
    event.preventDefault();
  }

  /** In a game against the solver, on the player's turn: what taking the pointed tile's pair opens
   * (with the picked tile, or its one twin); true when it said something. @param {any} target an event's */
  showOpening(target) {
    const view = this.view;
    const element = target.closest?.(".cell");
    if (!view || !element || !this.socket?.solver || !view.yourTurn) return false;
    const cell = parseCell(element.dataset.cell || "");
    if (cell === null || !view.playable.has(cell)) return false;
    const kind = view.position.cells[cell];
    const twins = [...view.free].filter((other) => other !== cell && view.position.cells[other] === kind);
    const other = this.selected !== null && twins.includes(this.selected) ? this.selected
      : twins.length === 1 ? twins[0] : null;
    if (other === null) return false;
    $("opens").textContent = openingWords(whatOpens(view.position, [cell, other]));
    return true;
  }

  askHint() {
    this.note = "";
    this.retry.clear();
    this.send((socket) => socket.askHint());
    this.render();
  }

  /** A note after the turn line (a refusal, a line that is down). @param {string} words */
  say(words) {
    this.note = words;
    this.render();
  }

  // -- the screen -------------------------------------------------------------------------

  render() {
    if (this.purpose === null) return;
    const socket = /** @type {GameSocket} */ (this.socket);
    renderLine(socket);
    const state = socket.state;
    if (!state) {
      $("turn").textContent = ["host", "solver"].includes(this.purpose) ? t("Creating your game…")
        : t("Waiting for the server…");
      return;
    }
    let view;
    try {
      view = deriveView(state, socket.pending.length);
    } catch (error) {
      notice(t("The server's game does not read here: {message}", { message: /** @type {Error} */ (error).message }));
      return;
    }
    this.follow(this.shown, state);
    this.shown = state;
    this.view = view;
    if (this.selected !== null && !view.playable.has(this.selected)) this.selected = null;
    const selectedKind = this.selected === null ? null : view.position.cells[this.selected];
    const twins = new Set(this.selected === null ? [] : [...view.free].filter(
      (cell) => cell !== this.selected && view.position.cells[cell] === selectedKind));
    this.board.render({
      cells: view.position.cells, free: view.free, playable: view.playable, selected: this.selected, twins,
      lastMove: view.lastMove, lastMover: view.lastMover, active: view.yourTurn,
    });
    renderPlayers(view, socket.solver?.seat ?? null);
    renderTurn(view, this.turnNote(view), this.lineUp());
    this.invite.render({ ...view, offered: Boolean(socket.seat?.offered) }, socket.shareUrl);
    this.names.render(view, Boolean(socket.solver));
    renderOffer(view);
    renderActions(view, this.refusedTakeback);
    renderSolverPanel(view, socket);
    renderPar(view, socket.par);
    if (this.openingPly !== view.history.length) {
      /** @type {number} */
      this.openingPly = view.history.length;
      $("opens").textContent = t("Point at a tile (or press it long) to see what taking its pair opens.");
    }
    // a game over has no pair to take nor hint to ask: what points at tiles and the keys go with it
    const over = state.status === "finished";
    $("opens").hidden = over;
    if (socket.solver) $("takeback").hidden = $("rematch").hidden = true; // the solver answers neither
    // the keys this game answers its players: a hint, or offers; once over, only a rematch's answer
    const player = view.you === 1 || view.you === 2;
    $("keys-friend").hidden = Boolean(socket.solver) || !player || over;
    $("keys-over").hidden = Boolean(socket.solver) || !player || !over;
    $("keys-solver").hidden = !socket.solver || over;
    $("record").hidden = state.status === "waiting";
    // the analysis board helps a player against the solver, and anyone once the game is over
    $("analyse").hidden = !(over || (socket.solver && state.status === "playing"));
    $("review-game").hidden = !over
      || ["aborted", "expired"].includes(/** @type {string} */ (state.result?.reason))
      || view.history.length === 0;
    // the solver neither joins nor moves again once its game is over (a friend may offer a rematch)
    $("alerts").hidden = view.you === "spectator" || (over && Boolean(socket.solver));
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

  /** The note after the turn line: in a game against the solver, what its move waits for first.
   * @param {View} view */
  turnNote(view) {
    const socket = /** @type {GameSocket} */ (this.socket);
    const solver = socket.solver;
    const solversTurn = solver && view.playing && view.state.to_move === solver.seat;
    const wait = secondsUntil(socket.thinkingUntil);
    // while the line is down, the turn line says so and nothing of the solver, whose news cannot come
    const thinking = solversTurn && !socket.refusal && this.lineUp()
      ? thinkingWords(socket.thinking, wait, socket.thinkingAhead) : "";
    document.body.dataset.solver = solversTurn ? String(socket.thinking ?? "") : "";
    return [thinking, this.retry.words(), this.note].filter(Boolean).join(" ");
  }

  /** What changed from `before` to `state` that the screen answers: news for a player who looks
   * elsewhere, notes that no longer fit (a game's end, a rematch), a takeback the opponent refused.
   * @param {State | null} before @param {State} state */
  follow(before, state) {
    const told = news(before, state, state.you, nameOf);
    if (told) this.alerts.tell(told);
    if (!before) return;
    if (before.game !== state.game || (before.status !== "finished" && state.status === "finished")) {
      this.note = "";
      this.refusedTakeback = null;
    }
    const ply = (state.moves || []).length;
    const you = state.you;
    if (before.offers?.takeback === you && !state.offers?.takeback && ply === (before.moves || []).length
      && state.status === "playing") {
      this.refusedTakeback = ply;
      this.note = t("{opponent} said no to taking back that move.", { opponent: nameOf(state, 3 - you) });
    }
  }

  lineUp() {
    return this.socket?.line.state === "connected";
  }

  tick() {
    if (!this.socket) return;
    if (["retrying", "silent"].includes(this.socket.line.state)) renderLine(this.socket);
    if (this.view?.playing && (this.view.state.move_seconds || this.socket.thinkingUntil)) {
      renderTurn(this.view, this.turnNote(this.view), this.lineUp()); // a clock, or a wait counted down
    }
  }
}
