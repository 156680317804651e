// @ts-check
// A finished game's review at its own address (/review/ID, a link to share): queued on the
// server's solver pool behind every waiting move, hint and analysis, it shows its place while
// it waits and then what `mahjong-battle review` gives with its default search a move (the same
// for the page, the command and the window: battle/search_times.py's REVIEW_SECONDS, said on the
// page as a node budget): each player's accuracy and points lost,
// the evaluation graph, the turning points and every move's loss and class.

import { $, ServerScreen, notice } from "./dom.js";
import { SolverSocket } from "./socket.js";
import { SHAPES } from "./game_view.js";
import { RetryClock, withAhead } from "./solver_panel.js";
import { renderLine } from "./game_panels.js";
import { shownName } from "./server_words.js";
import { formatNumber, percent, t } from "./i18n.js";
/** @import { Router } from "./app.js" */
/** @import { Handlers, Message } from "./socket.js" */

/** A review's report (docs/protocol.md, `review_result`) and a move of it.
 * @typedef {{number: number, player: number, move: string, loss: number, class: string, best_moves: string[]}} Move
 * @typedef {{players: string[], nodes_per_move: number | null, eval: number[], turning_points: Move[], moves: Move[],
 *   summary: {player: number, accuracy: number | null, points_lost: number, average_loss: number | null,
 *   counts: Record<string, number>}[]}} Report */

/** @param {string} name */
function classWords(name) {
  /** @type {Record<string, string>} */
  const words = {
    best: t("best"), good: t("good"), inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder"),
  };
  return words[name] || name;
}

/** @extends {ServerScreen<SolverSocket>} */
export class ReviewScreen extends ServerScreen {
  /** @param {Router} app */
  constructor(app) {
    super(app, "review", t("left the review"));
    this.review = null;
    /** @type {Message | null} */
    this.news = null;
    this.retry = new RetryClock(() => this.render()); // a refusal, counted down to asking again
  }

  /** @param {string} review */
  show(review) {
    this.hide();
    this.element.hidden = false;
    notice("");
    this.review = review;
    this.news = null;
    this.retry.clear();
    /** @type {HTMLAnchorElement} */ ($("review-link")).href = $("review-link").textContent = `${location.origin}/review/${review}`;
    this.socket = new SolverSocket({ handlers: this.handlers(), after: () => this.render() });
    this.socket.getReview(review);
    this.socket.start();
    this.render();
  }

  hide() {
    this.retry.clear();
    super.hide();
  }

  /** Drawn again after every message and change of the line (`after`). @returns {Handlers<SolverSocket>} */
  handlers() {
    return {
      review_result: (_socket, message) => {
        if (message.review === this.review) this.news = message;
      },
      solver_refused: (socket, message) => {
        if (message.what !== "review") return;
        this.retry.hold(message, () => socket === this.socket && socket.getReview(/** @type {string} */ (this.review)));
      },
    };
  }

  render() {
    renderLine(this.socket);
    const news = this.news;
    let status;
    if (this.retry.refusal) status = this.retry.words();
    else if (!news) status = t("Asking the server for the review…");
    else if (news.status === "failed") status = t("The solver could not review this game.");
    else if (news.status === "queued") {
      status = news.place
        ? withAhead(t("The review waits for the solver: place {place} in the queue.", { place: news.place }), news.ahead)
        : t("The solver reviews the game…");
    } else status = t("The review of the game: every move against perfect play.");
    $("review-status").textContent = status;
    document.body.dataset.review = news?.status || "";
    const report = news?.status === "done" ? news.report : null;
    $("review-report").hidden = !report;
    if (report) this.renderReport(report);
  }

  /** @param {Report} report */
  renderReport(report) {
    const headings = [...document.querySelectorAll(".review-summary thead th")].map((th) => th.textContent);
    const names = report.players.map(shownName);
    // the budget every move was searched with, in the words `mahjong-battle review` states it
    const nodes = report.nodes_per_move;
    $("review-budget").textContent = nodes === null || nodes === undefined ? t("Search per move: no limit.")
      : t("Search per move: up to {nodes} nodes.", { nodes: formatNumber(nodes) });
    const rows = report.summary.map((player) => {
      const row = document.createElement("tr");
      const cells = [
        `${SHAPES[player.player - 1]} ${names[player.player - 1]}`,
        // as `mahjong-battle review` writes them: accuracy to the tenth, the average loss to the hundredth
        player.accuracy === null ? "–" : percent(player.accuracy),
        String(player.points_lost),
        player.average_loss === null ? "–" : formatNumber(player.average_loss, 2),
      ];
      cells.forEach((text, index) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (index > 0) cell.dataset.label = headings[index]; // a phone shows it before the figure
        row.append(cell);
      });
      // each class and its count kept together; a narrow screen breaks the cell between them
      const errors = document.createElement("td");
      errors.dataset.label = headings[4];
      ["inaccuracy", "mistake", "blunder"].forEach((name, index) => {
        const count = document.createElement("span");
        count.className = "count";
        count.textContent = `${classWords(name)} ${player.counts[name] || 0}` + (index < 2 ? "," : "");
        errors.append(count, index < 2 ? " " : "");
      });
      row.append(errors);
      return row;
    });
    $("review-summary").replaceChildren(...rows);
    this.renderGraph(report.eval, names);
    const points = report.turning_points.map((point) => {
      const item = document.createElement("li");
      item.textContent = t("Move {number}: {name} played {move} ({class}, {loss} points lost); best was {best}.", {
        number: point.number, name: names[point.player - 1], move: point.move, class: classWords(point.class),
        loss: point.loss, best: point.best_moves.join(", "),
      });
      return item;
    });
    $("review-turning").replaceChildren(...points);
    $("review-no-turning").hidden = points.length > 0;
    const moves = report.moves.map((move) => {
      const row = document.createElement("tr");
      row.dataset.loss = String(move.loss);
      row.className = move.class;
      for (const text of [String(move.number), SHAPES[move.player - 1], move.move, String(move.loss), classWords(move.class)]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    });
    $("review-moves").replaceChildren(...moves);
  }

  /** The evaluation graph: player 1's projected final margin before the first move and after each,
   * with a caption that says so, and who is ahead on either side of the dashed line.
   * @param {number[]} values @param {string[]} names */
  renderGraph(values, names) {
    $("review-graph-caption").textContent = t(
      "The final margin under perfect play before the first move and after each: above the dashed line {first} is ahead, below it {second}.",
      { first: names[0], second: names[1] });
    const svg = $("review-graph");
    const width = 600;
    const height = 160;
    const most = Math.max(5, ...values.map(Math.abs));
    const x = (/** @type {number} */ index) => (values.length > 1 ? (index * width) / (values.length - 1) : 0);
    const y = (/** @type {number} */ value) => height / 2 - (value * (height / 2 - 6)) / most;
    const points = values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.innerHTML = `<line class="zero" x1="0" y1="${height / 2}" x2="${width}" y2="${height / 2}"></line>`
      + `<polyline class="eval" points="${points}"></polyline>`;
    svg.setAttribute("aria-label", t("The evaluation graph: player 1's projected margin, from {first} to {last}.",
      { first: values[0], last: values[values.length - 1] }));
  }
}
