// @ts-check
// The deal of the day on the home screen: its number and par, a game on it against the solver
// (at a level) or a friend, and the day's table of results against par (the server's `daily_table`:
// what counts, the top 20 with one row a network, and this browser's own best below). The table is asked
// once each time the home screen shows, on a line of its own that closes once it is answered.

import { $, setAddress } from "./dom.js";
import { SolverSocket, openings } from "./socket.js";
import { deviceKey } from "./device.js";
import { keepName, storedName } from "./seats.js";
import { levelName, signed } from "./server_words.js";
import { t } from "./i18n.js";
/** @import { Form } from "./dom.js" */
/** @import { Router } from "./app.js" */
/** @import { Handlers, Message } from "./socket.js" */

/** The par in words: the margin of the player who moves first under perfect play. @param {number} par */
export function parWords(par) {
  if (par === 0) return t("par even (a draw under perfect play)");
  return t("par {value} for the player who moves first", { value: signed(par) });
}

/** A margin against par in words, as the window's result card says it. @param {number} difference */
export function againstParWords(difference) {
  if (difference === 0) return t("on par");
  const points = Math.abs(difference);
  return difference > 0 ? t("{count} better", { count: points }) : t("{count} worse", { count: points });
}

/** A row of the day's table (docs/protocol.md, `daily_table`).
 * @typedef {{place: number, name: string, tag: string | null, score: number, against_par: number, opponent: string,
 *   yours: boolean}} Row */

export class DailyPanel {
  /** @param {Router} app */
  constructor(app) {
    this.app = app;
    this.socket = null;
    /** @type {Message | null} */
    this.table = null;
    $("daily-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const level = /** @type {Form} */ (event.target).elements.level.value;
      const name = this.keptName();
      const opening = openings.solverGame({ level, deal: { daily: true }, first: "creator", name });
      setAddress("/", true);
      this.app.openGame("solver", { opening });
    });
    $("daily-friend").addEventListener("click", () => {
      if (!this.table?.deal && this.table?.deal !== 0) return;
      const opening = openings.create({ deal: { number: this.table.deal }, first: "random", name: this.keptName() });
      setAddress("/", true);
      this.app.openGame("host", { opening });
    });
  }

  /** The name typed above the buttons, kept for the next game as the host form keeps its own. */
  keptName() {
    const name = /** @type {Form} */ ($("daily-form")).elements.name.value.trim();
    keepName(name);
    return storedName();
  }

  show() {
    this.close();
    /** @type {Form} */ ($("daily-form")).elements.name.value = storedName();
    $("daily").hidden = this.table === null || this.table.deal === null;
    this.socket = new SolverSocket({ handlers: this.handlers() });
    this.socket.daily(deviceKey());
    this.socket.start();
  }

  close() {
    if (this.socket) this.socket.close(t("left the home screen"));
    this.socket = null;
  }

  /** The table is all the panel reads of its line. @returns {Handlers<SolverSocket>} */
  handlers() {
    return {
      daily_table: (_socket, message) => {
        this.table = message;
        this.close();
        this.render();
      },
    };
  }

  render() {
    const table = /** @type {Message} */ (this.table); // rendered once the table is in
    $("daily").hidden = table.deal === null;
    if (table.deal === null) return;
    $("daily-deal").textContent = table.par === null
      ? t("Deal of the day: #{deal}.", { deal: table.deal })
      : t("Deal of the day: #{deal}, {par}.", { deal: table.deal, par: parWords(table.par) });
    const rows = table.rows.map((/** @type {Row} */ row) => {
      const line = document.createElement("tr");
      if (row.yours) line.className = "yours";
      const opponent = row.opponent === "friend" ? t("a friend") : levelName(row.opponent);
      const name = row.name || t("(no name)");
      // two rows of one name: each with its device's tag, so a name taken is told from its owner
      const shown = typeof row.tag === "string" && row.tag ? `${name} ·${row.tag}` : name;
      const cells = [String(row.place), shown, String(row.score), againstParWords(row.against_par), opponent];
      const headings = [...document.querySelectorAll("#daily-table thead th")].map((th) => th.textContent);
      cells.forEach((text, index) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        cell.dataset.label = headings[index];
        line.append(cell);
      });
      return line;
    });
    $("daily-rows").replaceChildren(...rows);
    $("daily-table").hidden = $("daily-bound").hidden = rows.length === 0;
    $("daily-empty").hidden = rows.length > 0;
  }
}
