// The joiner's first screen: a friend's link opened in a browser that never gave a name asks for
// one, once. The answer is kept in this browser (an empty one too: the player is then shown as
// "Player 1" or "Player 2" in each reader's language, and the server stores no name for them),
// and the game opens with it.

import { $, notice } from "./dom.js";
import { formatCode } from "./codes.js";
import { cleanName, keepName } from "./seats.js";

export class JoinScreen {
  /** @param app the router: `openGame(purpose, options)` */
  constructor(app) {
    this.app = app;
    this.element = $("join-ask");
    this.code = null;
    $("join-ask-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = cleanName(event.target.elements.name.value);
      keepName(name);
      const opening = { type: "join", code: this.code };
      if (name) opening.name = name;
      this.app.openGame("join", { opening, code: this.code });
    });
  }

  /** Ask the name for joining the game of invite code `code`. */
  show(code) {
    this.code = code;
    notice("");
    $("join-ask-code").textContent = formatCode(code);
    this.element.hidden = false;
    const input = $("join-ask-form").elements.name;
    input.value = "";
    input.focus();
  }

  hide() {
    this.element.hidden = true;
  }
}
