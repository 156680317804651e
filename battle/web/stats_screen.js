// @ts-check
// This browser's statistics (/stats/): the games filed under its device key (device.js) on this
// server, figured by the server with the window's own arithmetic (battle/history/stats.py), so a
// tally, the rating against the solver and the accuracy read as `mahjong-battle stats` would read
// them for the same games. Two plots drawn here as SVG (the rating after each rated game, the
// accuracy of each reviewed game), each with its figures in words for a screen reader, and the
// best and worst games, each opening its review (or its game, which offers one, if none ran yet).

import { $, ServerScreen, notice, withLanguage } from "./dom.js";
import { SolverSocket } from "./socket.js";
import { deviceKey } from "./device.js";
import { levelName, shownName, signed } from "./server_words.js";
import { renderLine } from "./game_panels.js";
import { percent, t, tn } from "./i18n.js";
/** @import { Router } from "./app.js" */
/** @import { Handlers } from "./socket.js" */

/** This browser's statistics (docs/protocol.md, `my_stats_result`).
 * @typedef {{opponent: string, wins: number, draws: number, losses: number, average_margin: number | null}} Tally
 * @typedef {{game: string, review: string | null, solver: boolean, opponent: string, score: number,
 *   opponent_score: number, finished_at: number}} Game
 * @typedef {{games: number, rating: number, margin: number, plays_like: string, history: number[][]}} Rating
 * @typedef {{type: string, games: number, tallies: Tally[], rating: Rating, unrated: number, accuracy: number[][],
 *   best: Game[], worst: Game[]}} Stats */

const PLOT_HEIGHT = 158; // the plot's CSS height, 160 px, inside its 1 px border
const PLOT_MARGIN = 60; // room on the left for the lowest and highest figure ("77,8 %": 40 px at 12 px)

/** @param {string} opponent */
function opponentWords(opponent) {
  if (opponent === "people") return t("people");
  if (opponent === "composed") return t("composed starts");
  return levelName(opponent);
}

/** @param {number | null} value */
function signedOrDash(value) {
  return value === null || value === undefined ? "–" : signed(value);
}

/** @param {number} seconds */
function dateWords(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang || "en", { dateStyle: "medium" });
}

/** @type {WeakMap<Element, {width: number, again: () => void}>} */
const drawn = new WeakMap();
/** Each plot drawn again when its width changes (a phone turned, a window resized, a plot drawn
 * before its screen showed): a plot keeps the width it was drawn at, so it would sit letterboxed. */
const resized = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => {
    for (const entry of entries) {
      const plot = drawn.get(entry.target);
      const width = plotWidth(entry.target);
      if (plot && entry.contentRect.width > 0 && width !== plot.width) plot.again();
    }
  })
  : null;

/** The width a plot draws at: its box inside the border (a viewBox of the border box's width, 30 px
 * wider than the drawing area of a card, shrank the drawing to 84% and centred it). @param {Element} svg */
function plotWidth(svg) {
  return Math.max(200, svg.clientWidth || 600);
}

/** A line through `values` (oldest first) in an SVG as wide as it shows (its dots stay round), the
 * lowest and highest figure written at the left as `written` writes them; `label` says every figure
 * to a screen reader.
 * @param {Element} svg @param {number[]} values @param {string} label
 * @param {(value: number) => string} written */
export function drawPlot(svg, values, label, written = String) {
  const width = plotWidth(svg);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const inner = width - PLOT_MARGIN - 16;
  const x = (/** @type {number} */ index) => PLOT_MARGIN + (values.length > 1 ? (index * inner) / (values.length - 1) : inner / 2);
  const y = (/** @type {number} */ value) => PLOT_HEIGHT - 16 - ((value - low) * (PLOT_HEIGHT - 32)) / span;
  const points = values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
  const dots = values.map((value, index) => `<circle class="dot" cx="${x(index).toFixed(1)}" cy="${y(value).toFixed(1)}" r="4"></circle>`);
  const figures = [...new Set([low, high])].map((value) =>
    `<text class="figure" x="6" y="${(y(value) + 4).toFixed(1)}">${written(value)}</text>`);
  svg.setAttribute("viewBox", `0 0 ${width} ${PLOT_HEIGHT}`);
  svg.innerHTML = `${figures.join("")}<polyline class="eval" points="${points}"></polyline>${dots.join("")}`;
  svg.setAttribute("aria-label", label);
  drawn.set(svg, { width, again: () => drawPlot(svg, values, label, written) });
  resized?.observe(svg);
}

/** @extends {ServerScreen<SolverSocket>} */
export class StatsScreen extends ServerScreen {
  /** @param {Router} app */
  constructor(app) {
    super(app, "stats", t("left the statistics"));
    /** @type {Stats | null} */
    this.stats = null;
  }

  show() {
    this.hide();
    this.element.hidden = false;
    notice("");
    this.stats = null;
    this.socket = new SolverSocket({ handlers: this.handlers(), after: () => this.render() });
    this.socket.myStats(deviceKey());
    this.socket.start();
    this.render();
  }

  /** Drawn again after every message and change of the line (`after`). @returns {Handlers<SolverSocket>} */
  handlers() {
    return {
      my_stats_result: (_socket, message) => {
        this.stats = /** @type {Stats} */ (message);
      },
    };
  }

  render() {
    if (this.socket) renderLine(this.socket);
    const stats = this.stats;
    document.body.dataset.stats = stats ? "shown" : "";
    if (!stats) {
      $("stats-status").textContent = t("Asking the server for your statistics…");
      $("stats-report").hidden = true;
      return;
    }
    $("stats-status").textContent = stats.games === 0
      ? t("No game of this browser on this server yet: play the solver or a friend, and your results are counted here.")
      : t("Your games in this browser on this server: {count}.", { count: stats.games });
    $("stats-report").hidden = stats.games === 0;
    if (stats.games === 0) return;
    this.renderTallies(stats.tallies);
    this.renderRating(stats.rating, stats.unrated);
    this.renderAccuracy(stats.accuracy);
    $("stats-best").replaceChildren(...stats.best.map((game) => this.gameItem(game)));
    // every game ended early (a resignation, the clock): no margin to rank, no heading over nothing
    $("stats-best-title").hidden = $("stats-best").hidden = stats.best.length === 0;
    $("stats-worst").replaceChildren(...stats.worst.map((game) => this.gameItem(game)));
    // the worst games leave out the best: with three games or fewer there may be none
    $("stats-worst-title").hidden = $("stats-worst").hidden = stats.worst.length === 0;
  }

  /** @param {Tally[]} tallies */
  renderTallies(tallies) {
    const headings = [...document.querySelectorAll(".stats-tallies thead th")].map((th) => th.textContent);
    $("stats-tallies").replaceChildren(...tallies.map((tally) => {
      const row = document.createElement("tr");
      const cells = [opponentWords(tally.opponent), String(tally.wins), String(tally.draws), String(tally.losses),
        signedOrDash(tally.average_margin === null ? null : Math.round(tally.average_margin * 10) / 10)];
      cells.forEach((text, index) => {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (index > 0) cell.dataset.label = headings[index];
        row.append(cell);
      });
      return row;
    }));
  }

  /** @param {Rating} rating @param {number} unrated */
  renderRating(rating, unrated) {
    const svg = $("stats-rating-plot");
    svg.toggleAttribute("hidden", rating.games === 0); // an SVG element has no `hidden` property
    let words = rating.games === 0
      ? t("No rated game against a level yet: a game on a numbered or random deal against the solver counts.")
      : tn("{rating} ± {margin} after {count} rated game: you play like the level {level}.",
        "{rating} ± {margin} after {count} rated games: you play like the level {level}.", rating.games, {
          rating: rating.rating, margin: rating.margin, level: levelName(rating.plays_like),
        });
    if (unrated) words += " " + t("Games from a composed start, not rated: {count}.", { count: unrated });
    $("stats-rating").textContent = words;
    if (rating.games === 0) return;
    const values = rating.history.map(([, after]) => after);
    drawPlot(svg, [1500, ...values], t("Your rating against the solver after each rated game, from 1500 at the start: {figures}.", {
      figures: values.join(", "),
    }));
  }

  /** @param {number[][]} accuracy */
  renderAccuracy(accuracy) {
    const svg = $("stats-accuracy-plot");
    svg.toggleAttribute("hidden", accuracy.length === 0);
    if (accuracy.length === 0) {
      $("stats-accuracy").textContent = t("No reviewed game yet: the review of a finished game gives its accuracy (the share of best moves).");
      return;
    }
    const values = accuracy.map(([, percent]) => percent);
    const latest = values[values.length - 1];
    // to the tenth, as each game's accuracy is: one game's average is its own figure, not a rounding of it
    const average = Math.round((10 * values.reduce((sum, value) => sum + value, 0)) / values.length) / 10;
    $("stats-accuracy").textContent = values.length === 1
      ? t("Accuracy in your one reviewed game: {latest}.", { latest: percent(latest) })
      : t("Latest {latest}, average {average} over {count} reviewed games.", {
        latest: percent(latest), average: percent(average), count: values.length,
      });
    drawPlot(svg, values, t("Your accuracy in each reviewed game, oldest first: {figures}.", {
      figures: values.map((value) => percent(value)).join(", "),
    }), (value) => percent(value));
  }

  /** @param {Game} game */
  gameItem(game) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    const opponent = game.solver ? levelName(game.opponent) : shownName(game.opponent);
    const words = t("{date}: {score}-{other} against {opponent} ({margin})", {
      date: dateWords(game.finished_at), score: game.score, other: game.opponent_score, opponent,
      margin: signed(game.score - game.opponent_score),
    });
    link.textContent = game.review ? words + " · " + t("review") : words + " · " + t("the game, to review it");
    link.href = withLanguage(game.review ? `/review/${game.review}` : `/play/${game.game}`);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.app.go(game.review ? `/review/${game.review}` : `/play/${game.game}`);
    });
    item.append(link);
    return item;
  }
}
