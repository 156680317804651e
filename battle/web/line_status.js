// The status line at the top right: the state of the line to the server in words, a shape
// that says it as well as the colour does, and `data-state` for tests and styles.

import { $ } from "./dom.js";
import { t } from "./i18n.js";

/** Show the line of `socket` (a GameSocket), or "Not in a game" for null. */
export function showLine(socket) {
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
    }
    else if (line.state === "retrying") {
      const what = line.everConnected ? t("Connection lost") : t("The server does not answer");
      [words, mark, kind] = [t("{what}: retrying in {wait} s", { what, wait }), "▲", "warn"];
    } else if (line.state === "closed") [words, mark, kind] = [t("Closed: {detail}", { detail: line.detail }), "■", "error"];
    else [words, mark, kind] = [t("Connecting…"), "○", "quiet"];
  }
  $("link-text").textContent = words;
  document.querySelector(".link-mark").textContent = mark;
  $("link").dataset.kind = kind;
  $("link").dataset.state = socket?.line.state || "none";
}
