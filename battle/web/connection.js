// The line to the game server: one WebSocket at a time, opened again when it drops (0.5 s
// doubling to 30 s, up to a quarter less at random, so a restarted server is not hit by every
// page at once), as the installed clients do (battle/online/client/session.py). It knows no
// game: on every open it sends what `greeting()` gives (hello, then the opening message), and it
// hands every message it reads to `onMessage`. socket.js says what those messages mean.
//
// The line's state, for the status line: "connecting", "connected" (the socket told it the
// server answered the opening), "retrying" (waiting to open again), "closed" (for good).

import { t } from "./i18n.js";

const BACKOFF_FIRST = 0.5;
const BACKOFF_LONGEST = 30;

/** The server's address: the page's own origin, ws:// or wss:// as the page came (a TLS proxy gives wss). */
export function serverUrl() {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
}

export class Line {
  /**
   * @param greeting () => the messages to send on every open, in order
   * @param onMessage (message) for every JSON object the server sends
   * @param onChange () after every change of `state`
   */
  constructor({ url = serverUrl(), greeting, onMessage, onChange }) {
    this.url = url;
    this.greeting = greeting;
    this.onMessage = onMessage;
    this.onChange = onChange;
    this.state = "connecting";
    this.detail = "";
    this.retryAt = null;
    this.everConnected = false;
    this.reached = false; // connected since the last drop: the next retry starts short again
    this.closed = false;
    this.socket = null;
    this.delay = BACKOFF_FIRST;
    this.timer = null;
  }

  start() {
    this.open();
  }

  /** Close for good (the player left, or the server refused the opening); `detail` says why. */
  close(detail, code = 1000) {
    this.closed = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close(code, "left");
    this.set("closed", detail);
  }

  /** The server answered the opening: the line is up. */
  connected() {
    if (this.state === "connected") return;
    this.reached = true;
    this.everConnected = true;
    this.set("connected");
  }

  /** Send a message now; false when the line is not up (nothing is queued here). */
  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN && this.state === "connected") {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // -- the socket -------------------------------------------------------------------------

  open() {
    if (this.closed) return;
    this.set("connecting");
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
      for (const message of this.greeting()) socket.send(JSON.stringify(message));
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message === "object") this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (!this.closed) this.retry(this.everConnected ? t("the connection dropped") : t("the server does not answer"));
    });
  }

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

  set(state, detail = "", retryAt = null) {
    this.state = state;
    this.detail = detail;
    this.retryAt = retryAt;
    this.onChange();
  }
}
