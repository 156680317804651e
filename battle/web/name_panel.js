// @ts-check
// The joiner's name, asked beside the board: a friend's link opens the game at once (the board is
// what the friend came for), and a browser that never gave a name is asked for one in a card of
// the game screen, once. Until it is given the player is "Player 2" (or 1) on both sides; the
// answer goes to the server (`name`, which names a seat once) and is kept in this browser for the
// next games. An empty answer is kept as well: the card does not come back.

import { $ } from "./dom.js";
import { cleanName, keepName, nameAsked } from "./seats.js";
import { t } from "./i18n.js";
/** @import { Form } from "./dom.js" */
/** @import { View } from "./game_view.js" */

export class NamePanel {
  /** @param {(name: string) => boolean} give sends the name to the server; false when the line is down */
  constructor(give) {
    this.give = give;
    this.wanted = false;
    $("name-ask").addEventListener("submit", (event) => {
      event.preventDefault();
      this.answer(cleanName(/** @type {Form} */ ($("name-ask")).elements.name.value));
    });
    $("name-ask-skip").addEventListener("click", () => this.answer(""));
  }

  /** Ask in this game if the browser has no name yet: the card shows at once, before the server's
   * first state, so the board below it on a phone never moves when that state comes. */
  open() {
    this.wanted = !nameAsked();
    /** @type {Form} */ ($("name-ask")).elements.name.value = "";
    $("name-ask-until").textContent = "";
    $("name-ask").hidden = !this.wanted;
  }

  /** @param {string} name */
  answer(name) {
    if (name && !this.give(name)) return; // the line is down: the card stays, the turn line says why
    keepName(name);
    this.wanted = false;
    $("name-ask").hidden = true;
  }

  /** Shown to a player of a friend's game not over, seated without a name, whose browser has none yet.
   * @param {View} view @param {boolean} solverGame */
  render(view, solverGame) {
    const { state } = view;
    const seat = state.you;
    const nameless = !(state.players || []).find((player) => player.seat === seat)?.name;
    const show = this.wanted && !solverGame && (seat === 1 || seat === 2) && nameless && state.status !== "finished";
    $("name-ask").hidden = !show;
    if (show) {
      $("name-ask-until").textContent = t("Until you give one, your opponent sees \"{name}\".",
        { name: t("Player {seat}", { seat }) });
    }
  }

  hide() {
    $("name-ask").hidden = true;
  }
}
