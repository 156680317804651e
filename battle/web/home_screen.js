// @ts-check
// The home screen: host a game, join or watch one by its code, or go back to a game this
// browser holds a seat in. It starts nothing itself: hosting hands the `create` message to
// the app (socket.js builds it), and a code becomes an address (/join/CODE, /watch/CODE) the app routes.

import { $, copyOptions, notice, setAddress } from "./dom.js";
import { formatCode, normaliseCode } from "./codes.js";
import { openings } from "./socket.js";
import { allSeats, forgetSeat, keepName, storedName } from "./seats.js";
import { shownName } from "./server_words.js";
import { t } from "./i18n.js";
import { LobbyPanel } from "./lobby_panel.js";
import { DailyPanel } from "./daily_panel.js";
/** @import { Form } from "./dom.js" */
/** @import { Router } from "./app.js" */

export class HomeScreen {
  /** @param {Router} app */
  constructor(app) {
    this.app = app;
    this.element = $("home");
    copyOptions();
    this.lobby = new LobbyPanel(app);
    this.wire();
    this.daily = new DailyPanel(app);
  }

  show(message = "") {
    this.element.hidden = false;
    notice(message);
    const form = /** @type {Form} */ ($("host-form"));
    form.elements.name.value = storedName();
    this.listGames();
    this.lobby.start();
    this.daily.show();
  }

  hide() {
    this.element.hidden = true;
    this.lobby.stop();
    this.daily.close();
  }

  listGames() {
    const list = $("game-list");
    list.replaceChildren();
    const seats = allSeats();
    $("my-games").hidden = seats.length === 0;
    for (const seat of seats) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const against = seat.opponent ? t("against {name}", { name: shownName(seat.opponent) }) : t("waiting for a second player");
      const status = seat.status === "finished" ? t("over") : seat.status === "waiting" ? t("waiting") : t("going on");
      button.textContent = t("Game {against} ({status})", { against, status });
      button.addEventListener("click", () => this.app.go(`/play/${seat.game}`));
      const forget = document.createElement("button");
      forget.type = "button";
      forget.className = "quiet";
      forget.textContent = t("Forget");
      forget.setAttribute("aria-label", t("Forget the game {against}", { against }));
      forget.addEventListener("click", () => {
        forgetSeat(seat.token);
        this.show("");
      });
      item.append(button, forget);
      list.append(item);
    }
  }

  wire() {
    $("host-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const form = /** @type {Form} */ (event.target).elements;
      const name = form.name.value.trim();
      keepName(name);
      const deal = dealOf(form);
      if (deal === null) return;
      const build = /** @type {HTMLButtonElement | null} */ (event.submitter)?.value === "lobby"
        ? openings.challenge : openings.create;
      const opening = build({
        deal, first: form.first.value, moveSeconds: Number(form.move_seconds.value) || null, name,
      });
      setAddress("/", true);
      this.app.openGame("host", { opening });
    });
    /** @type {Form} */ ($("host-form")).elements.number.addEventListener("input", () => {
      /** @type {Form} */ ($("host-form")).elements.deal.value = "number";
    });
    $("solver-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const form = /** @type {Form} */ (event.target).elements;
      const deal = dealOf(form);
      if (deal === null) return;
      const opening = openings.solverGame({ level: form.level.value, deal, first: form.first.value, name: storedName() });
      setAddress("/", true);
      this.app.openGame("solver", { opening });
    });
    /** @type {Form} */ ($("solver-form")).elements.number.addEventListener("input", () => {
      /** @type {Form} */ ($("solver-form")).elements.deal.value = "number";
    });
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const purpose = /** @type {HTMLButtonElement | null} */ (event.submitter)?.value || "join";
      let code;
      try {
        code = normaliseCode(/** @type {Form} */ (event.target).elements.code.value);
      } catch (error) {
        notice(/** @type {Error} */ (error).message);
        return;
      }
      this.app.go(`/${purpose}/${formatCode(code)}`);
    });
  }
}

/** A form's deal as the protocol has it: random, a number, the deal of the day or a fair one (a
 * catalogued deal within 2 points of even); null, said in the notice, for a number that does not read.
 * @param {Form["elements"]} form */
function dealOf(form) {
  const kind = form.deal.value;
  if (kind === "daily") return { daily: true };
  if (kind === "fair") return { fair: "within2" };
  if (kind !== "number") return { random: true };
  const number = Number(form.number.value);
  if (!Number.isSafeInteger(number) || number < 0 || form.number.value.trim() === "") {
    notice(t("A deal number is a whole number from 0 up."));
    return null;
  }
  return { number };
}
