// @ts-check
// The line to the game server: one WebSocket at a time, opened again when it drops (0.5 s
// doubling to 30 s, up to a quarter less at random, so a restarted server is not hit by every
// page at once), as the installed clients do (battle/online/client/session.py). It knows no
// game: on every open it sends what `greeting()` gives (hello, then the opening message), and it
// hands every message it reads to `onMessage`. socket.js says what those messages mean.
//
// A dead network does not close a WebSocket: the browser sees nothing for minutes while the
// server marks the player away after 41 s. So the line runs its own heartbeat: after 2.5 s
// without a word from the server it sends the `ping` that `ping()` builds, and after 6 s of
// silence (two pings unanswered, or the browser's "offline" event) it says the line is down;
// after 20 s it gives the socket up and opens a new one. A socket that has not opened after
// 10 s is given up as well (a stopped server accepts a connection and never answers it).
//
// A server closes a connection that is in no game and waits for no solver work after a while
// (`serve --idle-seconds`), with a normal closure (1000): the analysis board after its exact
// values, a review's page once the review is there. Such a line rests: it opens again when the
// screen next sends, not at once (its greeting would ask the same analysis again, every time).
//
// On a site served by several machines (server groups, docs/deploy.md "Two machines") or by
// several processes of one (`serve --processes`) a server may answer the opening with
// `elsewhere`: another place holds the game (or the lobby). The line then opens at once at the
// same address with `?at=` naming that place, and greets again (`follow`); three such answers in
// a row without a state close it, so two places naming each other cannot bounce it.
// The page's own `?at=` (kept in its address, dom.js) goes into the address it opens first.
//
// The line's state, for the status line: "connecting", "connected" (the socket told it the
// server answered the opening), "silent" (open, but nothing heard for too long), "retrying"
// (waiting to open again), "resting" (closed by the server as idle; opens when needed),
// "closed" (for good).

import { t } from "./i18n.js";
/** @import { Message } from "./socket.js" */

const BACKOFF_FIRST = 0.5;
const BACKOFF_LONGEST = 30;
const PING_AFTER_MS = 2500;
const SILENT_AFTER_MS = 6000;
const GIVE_UP_AFTER_MS = 20000;
const OPEN_TIMEOUT_MS = 10000;
const CHECK_EVERY_MS = 500;
const MESSAGE_TOO_BIG = 1009;
const IDLE = 1000; // the server's close of a connection that serves nobody (connections.IDLE_CLOSE)
const FOLLOWS_IN_A_ROW = 3; // battle/online/protocol/server_groups.py

/** The server's address: the page's own origin, ws:// or wss:// as the page came (a TLS proxy gives
 * wss), with the server group the page's address names (`?at=`). */
export function serverUrl() {
  const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
  const group = new URLSearchParams(location.search).get("at");
  return group ? urlAt(url, group) : url;
}

/** `url` with its `at` parameter naming the server group `group`. @param {string} url @param {string} group */
export function urlAt(url, group) {
  const address = new URL(url);
  address.searchParams.set("at", group);
  return address.href;
}

export class Line {
  /**
   * @param {object} options
   * @param {string} [options.url]
   * @param {() => unknown[]} options.greeting the messages to send on every open, in order
   * @param {() => object} options.ping the heartbeat message
   * @param {(message: Message) => void} options.onMessage for every JSON object the server sends
   * @param {() => void} options.onChange after every change of `state`
   * @param {() => void} options.onBack when a silent line hears the server again (what was not sent may go now)
   */
  constructor({ url = serverUrl(), greeting, ping, onMessage, onChange, onBack }) {
    this.url = url;
    this.greeting = greeting;
    this.ping = ping;
    this.onMessage = onMessage;
    this.onChange = onChange;
    this.onBack = onBack;
    this.state = "connecting";
    this.detail = "";
    /** @type {number | null} */
    this.retryAt = null;
    this.heardAt = 0; // when the server last said anything (Date.now())
    this.pingedAt = 0;
    this.openedAt = 0;
    this.everConnected = false;
    this.reached = false; // connected since the last drop: the next retry starts short again
    this.closed = false;
    this.followed = 0; // `elsewhere` answers followed since the last state
    this.socket = null;
    this.delay = BACKOFF_FIRST;
    this.timer = null;
    this.heartbeat = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.offline = () => this.lost();
    this.online = () => this.reopenNow();
    window.addEventListener("offline", this.offline);
    window.addEventListener("online", this.online);
  }

  start() {
    this.open();
  }

  /** Close for good (the player left, or the server refused the opening); `detail` says why. @param {string} detail */
  close(detail) {
    this.closed = true;
    clearTimeout(/** @type {number} */ (this.timer));
    clearInterval(this.heartbeat);
    window.removeEventListener("offline", this.offline);
    window.removeEventListener("online", this.online);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(1000, "left");
    this.set("closed", detail);
  }

  /** The server answered the opening: the line is up. */
  connected() {
    if (this.state === "connected") return;
    this.followed = 0;
    this.reached = true;
    this.everConnected = true;
    this.set("connected");
  }

  /** Send a message now; false when the line is not up (nothing is queued here). A resting line
   * opens again: its greeting carries what the screen stands on. @param {object} message */
  send(message) {
    if (this.state === "resting") {
      this.open();
      return false;
    }
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.state === "connected") {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Another place (a server group, a process) holds the game (`elsewhere`): greet it now, at the same
   * address with `?at=place`. False when the places keep naming one another (the line is closed, saying so).
   * @param {string} group */
  follow(group) {
    this.followed += 1;
    if (this.followed > FOLLOWS_IN_A_ROW) {
      this.close(t("the site's servers keep sending this game to one another; try again later"));
      return false;
    }
    this.url = urlAt(this.url, group);
    const socket = this.socket;
    this.socket = null; // its close is not a drop: no retry, no pause
    if (socket) socket.close(1000, "elsewhere");
    clearTimeout(/** @type {number} */ (this.timer));
    this.open();
    return true;
  }

  /** Seconds since the server last said anything (for "no answer for 8 s"). */
  silentFor() {
    return Math.floor((Date.now() - this.heardAt) / 1000);
  }

  // -- the socket -------------------------------------------------------------------------

  open() {
    if (this.closed) return;
    this.set("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.retry(t("cannot reach the server: {message}", { message: /** @type {Error} */ (error).message }));
      return;
    }
    this.socket = socket;
    this.openedAt = Date.now();
    socket.addEventListener("open", () => {
      performance.mark("socket-open");
      this.heardAt = Date.now();
      for (const message of this.greeting()) socket.send(JSON.stringify(message));
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.heard();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message === "object") this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (event.code === MESSAGE_TOO_BIG) {
        this.close(t("the server refused a message of this page as too big"));
        return;
      }
      if (event.code === IDLE && this.everConnected) {
        this.set("resting");
        return;
      }
      this.retry(this.everConnected ? t("the connection dropped") : t("the server does not answer"));
    });
  }

  heard() {
    this.heardAt = Date.now();
    if (this.state === "silent") {
      this.set("connected");
      this.onBack();
    }
  }

  /** The heartbeat: ping a quiet server, call a line down that stays silent, give up a dead socket. */
  check() {
    const socket = this.socket;
    if (this.closed || !socket) return;
    const now = Date.now();
    if (socket.readyState === WebSocket.CONNECTING) {
      if (now - this.openedAt >= OPEN_TIMEOUT_MS) this.giveUp();
      return;
    }
    if (socket.readyState !== WebSocket.OPEN) return;
    const quiet = now - this.heardAt;
    if (quiet >= GIVE_UP_AFTER_MS) {
      this.giveUp();
      return;
    }
    if (quiet >= SILENT_AFTER_MS && this.state === "connected") this.set("silent");
    if (quiet >= PING_AFTER_MS && now - this.pingedAt >= PING_AFTER_MS) {
      this.pingedAt = now;
      socket.send(JSON.stringify(this.ping()));
    }
  }

  /** The browser says the network is gone: the line is down now, not in 6 s. */
  lost() {
    if (this.state === "connected") this.set("silent");
  }

  /** The network is back: a line that was down opens a new socket at once rather than wait. */
  reopenNow() {
    if (this.closed) return;
    if (this.state === "silent") this.giveUp();
    else if (this.state === "retrying") {
      clearTimeout(/** @type {number} */ (this.timer));
      this.open();
    }
  }

  giveUp() {
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(4000, "no answer");
    this.retry(t("no answer from the server"));
  }

  /** @param {string} reason */
  retry(reason) {
    if (this.reached) {
      this.delay = BACKOFF_FIRST;
      this.reached = false;
    }
    const seconds = this.delay * (1 - 0.25 * Math.random());
    this.delay = Math.min(BACKOFF_LONGEST, this.delay * 2);
    this.set("retrying", reason, Date.now() + seconds * 1000);
    this.timer = setTimeout(() => this.open(), seconds * 1000);
  }

  /** @param {string} state @param {number | null} retryAt */
  set(state, detail = "", retryAt = null) {
    this.state = state;
    this.detail = detail;
    this.retryAt = retryAt;
    this.onChange();
  }
}
