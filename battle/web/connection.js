// The page's connection to the game server, kept alive the way the installed clients keep
// theirs (battle/online/client.py): `hello`, then the opening message (`create`, `join`,
// `watch`, or `resume` with the seat token once there is one); a dropped connection is
// retried after 0.5 s doubling to 30 s (up to a quarter less at random, so a restarted
// server is not hit by every page at once), resumed with the token, and every move without
// an `ack` is sent again with its id: the server applies an id once, so a move is never
// lost and never played twice.
//
// The session folds the server's messages into the latest `state` and tells its listener;
// it decides nothing about the game (the server does).

import { keepSeat } from "./seats.js";
import { t } from "./i18n.js";

const BACKOFF_FIRST = 0.5;
const BACKOFF_LONGEST = 30;
const PROTOCOL_VERSION = 1;
const FATAL_CODES = new Set(["version", "bad_token", "not_found", "full", "expired", "damaged"]);
const OPENINGS = new Set(["hello", "create", "join", "resume", "watch"]);
const FORGOTTEN_MOVE_CODES = new Set(["illegal_move", "not_your_turn", "game_over", "out_of_time", "id_reused",
  "not_a_player"]);

/** The server's address: the page's own origin, ws:// or wss:// as the page came (a TLS proxy gives wss). */
export function serverUrl() {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
}

function newMoveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return "w" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The state after a `moved` message, or the same state when the move is out of order. */
export function afterMove(state, moved) {
  if (!state || !Array.isArray(state.moves) || moved.ply !== state.moves.length + 1) return state;
  return {
    ...state,
    moves: [...state.moves, moved.move],
    ply: state.moves.length + 1,
    offers: { ...(state.offers || {}), takeback: null },
    scores: moved.scores,
    to_move: moved.to_move,
    status: moved.status,
    result: moved.result,
    deadline: moved.deadline,
    seconds_left: null,
  };
}

export class Session {
  /**
   * @param opening the first game message (`create`, `join`, `watch`); with `seat` the session resumes it
   * @param listener called with (session, message) for every server message and link change
   */
  constructor({ opening = null, seat = null, name = "", listener = () => {}, url = serverUrl() }) {
    this.opening = opening;
    this.seat = seat; // {token, game, seat, invite, watch, pending: [[id, move]...]}
    this.name = name;
    this.listener = listener;
    this.url = url;
    this.state = null;
    this.link = { state: "connecting", detail: "", retryAt: null };
    this.reached = false; // a state arrived since the last drop: the next retry starts short again
    this.everConnected = false;
    this.closed = false;
    this.socket = null;
    this.delay = BACKOFF_FIRST;
    this.timer = null;
  }

  get pending() {
    return this.seat?.pending || [];
  }

  start() {
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000, "left");
    this.setLink("closed", t("left the game"));
  }

  /** Send a move (notation); it stays pending, and is resent, until the server acknowledges it. */
  play(move) {
    const id = newMoveId();
    this.seat.pending = [...this.pending, [id, move]];
    this.remember();
    this.sendNow({ type: "move", move, id });
    return id;
  }

  /** Send a message now if connected; other messages than moves are not queued (the screen shows the link). */
  send(message) {
    return this.sendNow(message);
  }

  // -- the connection ---------------------------------------------------------------------

  connect() {
    if (this.closed) return;
    this.setLink("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.retry(t("cannot reach the server: {message}", { message: error.message }));
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      performance.mark("socket-open");
      const hello = { type: "hello", version: PROTOCOL_VERSION };
      if (this.name) hello.name = this.name;
      socket.send(JSON.stringify(hello));
      socket.send(JSON.stringify(this.openingMessage()));
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (!this.closed && this.link.state !== "closed") {
        this.retry(this.everConnected ? t("the connection dropped") : t("the server does not answer"));
      }
    });
  }

  openingMessage() {
    if (this.seat?.token) return { type: "resume", token: this.seat.token };
    return this.opening;
  }

  retry(reason) {
    if (this.reached) {
      this.delay = BACKOFF_FIRST;
      this.reached = false;
    }
    const seconds = this.delay * (1 - 0.25 * Math.random());
    this.delay = Math.min(BACKOFF_LONGEST, this.delay * 2);
    this.setLink("retrying", reason, Date.now() + seconds * 1000);
    this.timer = setTimeout(() => this.connect(), seconds * 1000);
  }

  sendNow(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.link.state === "connected") {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  setLink(state, detail = "", retryAt = null) {
    this.link = { state, detail, retryAt };
    this.listener(this, { type: "link" });
  }

  remember() {
    if (this.seat?.token) keepSeat(this.seat);
  }

  // -- the server's messages --------------------------------------------------------------

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (!message || typeof message !== "object") return;
    const fatal = this.take(message);
    if (message.type === "state" && this.link.state !== "connected") {
      performance.mark("state");
      this.reached = true;
      this.everConnected = true;
      this.setLink("connected");
      for (const [id, move] of this.pending) this.socket.send(JSON.stringify({ type: "move", move, id }));
    }
    this.listener(this, message);
    if (fatal) {
      this.closed = true;
      this.setLink("closed", message.reason || "refused");
      if (this.socket) this.socket.close(1000, "refused");
    }
  }

  /** Fold a message into the session; true when it refuses the opening for good. */
  take(message) {
    switch (message.type) {
      case "created":
      case "joined":
        this.seat = {
          token: message.token, game: message.game, seat: message.seat, pending: [],
          invite: this.opening?.type === "join" ? this.opening.code : message.invite || null,
          watch: message.watch || null, hosted: message.type === "created",
        };
        this.remember();
        return false;
      case "state":
        this.state = message;
        if (this.seat?.token) {
          this.seat.game = message.game;
          this.seat.watch = message.watch || this.seat.watch;
          this.seat.status = message.status;
          this.seat.opponent = (message.players || []).find((p) => p.seat !== message.you)?.name || null;
          this.remember();
        }
        return false;
      case "moved":
        this.state = afterMove(this.state, message);
        if (this.seat?.token) {
          this.seat.status = message.status;
          this.remember();
        }
        return false;
      case "ack":
        if (this.seat) {
          this.seat.pending = this.pending.filter(([id]) => id !== message.id);
          this.remember();
        }
        return false;
      case "rematch":
        if (this.seat?.token) {
          this.seat.game = message.game;
          this.seat.seat = message.you;
          this.seat.watch = message.watch;
          this.remember();
        }
        return false;
      case "error": {
        const ref = message.ref || {};
        if (FORGOTTEN_MOVE_CODES.has(message.code) && this.seat) {
          this.seat.pending = this.pending.filter(([id]) => id !== ref.id);
          this.remember();
        }
        return FATAL_CODES.has(message.code) && OPENINGS.has(ref.type);
      }
      default:
        return false;
    }
  }
}
