// @ts-check
// The lobby on the home screen: the open challenges anyone may take and the games being played,
// kept live while the home screen shows. It follows the lobby on a line of its own (socket.js's
// LobbySocket, which follows an `elsewhere` to the process that keeps the lobby): the server sends
// the list once (`lobby`), then only what changed (`lobby_news`), which this panel folds into its
// copy. A click on a challenge is a join with its invite code and a click on a game a watch with
// its watch code: the app routes /join/CODE and /watch/CODE as it does a friend's link, so both
// players land in the game.

import { $ } from "./dom.js";
import { LobbySocket } from "./socket.js";
import { refusalText, shownName } from "./server_words.js";
import { t, tn } from "./i18n.js";
/** @import { Router } from "./app.js" */
/** @import { Handlers, Message } from "./socket.js" */

/** An open challenge and a game being played, as the lobby lists them (docs/protocol.md, `lobby`).
 * @typedef {{code: string, name: string, deal_kind: string, deal: number | null, first: string,
 *   move_seconds: number | null, opened: number}} Challenge
 * @typedef {{watch: string, players: string[], started: number}} Game */

const MOST_SHOWN = 50; // the server's part shown (lobby.LobbyLimits.shown): a copy never holds more

export class LobbyPanel {
  /** @param {Router} app */
  constructor(app) {
    this.app = app;
    this.socket = null;
    /** @type {Map<string, Challenge>} */
    this.challenges = new Map(); // invite code -> entry
    /** @type {Map<string, Game>} */
    this.games = new Map(); // watch code -> entry
    this.more = { challenges: 0, games: 0 };
    /** @type {Challenge[]} */
    this.further = []; // challenges past the part told to every follower, as `lobby_page` last said
    this.heard = false;
    this.refusal = ""; // why the server refused to list the lobby, in words
  }

  /** Follow the lobby (the home screen shows). */
  start() {
    if (this.socket) return;
    this.heard = false;
    this.refusal = "";
    this.socket = new LobbySocket({ handlers: this.handlers() });
    this.socket.start();
    $("challenge-next").onclick = () => this.next();
    this.render();
  }

  /** Ask for the challenges past those listed (`lobby_page`): every open challenge is reachable. */
  next() {
    const start = Math.min(this.challenges.size, MOST_SHOWN) + this.further.length;
    this.socket?.page(start);
  }

  /** Follow it no more (the home screen hides). */
  stop() {
    if (!this.socket) return;
    const socket = this.socket;
    this.socket = null;
    socket.close("");
  }

  /** Each draws the panel; a message of another type draws nothing. @returns {Handlers<LobbySocket>} */
  handlers() {
    return {
      line: () => this.render(),
      lobby: (_socket, message) => {
        this.heard = true;
        this.challenges = new Map(message.challenges.map((/** @type {Challenge} */ entry) => [entry.code, entry]));
        this.further = [];
        this.games = new Map(message.games.map((/** @type {Game} */ entry) => [entry.watch, entry]));
        this.counted(message);
      },
      error: (_socket, message) => {
        this.refusal = refusalText(message);
        this.stop(); // the server's limit: the home page's next showing asks again
        this.render();
      },
      lobby_page: (_socket, message) => {
        const listed = new Set([...this.challenges.keys(), ...this.further.map((entry) => entry.code)]);
        this.further.push(...message.challenges.filter((/** @type {Challenge} */ entry) => !listed.has(entry.code)));
        this.render();
      },
      lobby_news: (_socket, message) => {
        for (const code of message.removed) this.challenges.delete(code);
        const removed = new Set(message.removed);
        this.further = this.further.filter((entry) => !removed.has(entry.code));
        for (const entry of message.added) this.challenges.set(entry.code, entry);
        for (const code of message.games_removed) this.games.delete(code);
        for (const entry of message.games_added) this.games.set(entry.watch, entry);
        this.counted(message);
      },
    };
  }

  /** The challenges and games past the part shown, as `lobby` and `lobby_news` count them. @param {Message} message */
  counted(message) {
    this.more = { challenges: message.more_challenges, games: message.more_games };
    this.render();
  }

  render() {
    const status = $("lobby-status");
    const up = this.socket && this.socket.state === "connected" && this.heard;
    status.textContent = this.refusal || (up ? "" : this.heard ? t("The lobby is out of reach; trying again.") : t("Opening the lobby…"));
    this.renderChallenges();
    this.renderGames();
  }

  renderChallenges() {
    const list = $("challenge-list");
    // the longest waiting first, as the server shows them: a newer challenge never pushes one out
    const waiting = [...this.challenges.values()].sort((a, b) => a.opened - b.opened).slice(0, MOST_SHOWN);
    const shown = new Set(waiting.map((entry) => entry.code));
    const further = this.further.filter((entry) => !shown.has(entry.code));
    list.replaceChildren(...[...waiting, ...further].map((entry) => this.challengeItem(entry)));
    $("challenge-empty").hidden = waiting.length > 0 || !this.heard;
    const left = Math.max(0, this.more.challenges - further.length);
    $("challenge-more-line").hidden = left === 0;
    $("challenge-more").textContent = tn("{count} more challenge is open.", "{count} more challenges are open.", left);
  }

  /** @param {Challenge} entry */
  challengeItem(entry) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    const given = shownName(entry.name);
    const name = given || t("the challenger");
    const who = document.createElement("span");
    who.textContent = given ? t("Play {name}", { name: given }) : t("Play a challenger who gave no name");
    const terms = document.createElement("span");
    terms.className = "small";
    terms.textContent = challengeTerms(entry, name);
    button.append(who, terms);
    button.addEventListener("click", () => this.app.go(`/join/${encodeURIComponent(entry.code)}`));
    item.append(button);
    return item;
  }

  renderGames() {
    const list = $("lobby-games");
    const newest = [...this.games.values()].sort((a, b) => b.started - a.started);
    list.replaceChildren(...newest.map((entry) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const [first, second] = entry.players.map((player, index) => shownName(player) || t("Player {seat}", { seat: index + 1 }));
      button.textContent = t("Watch {first} against {second}", { first, second });
      button.addEventListener("click", () => this.app.go(`/watch/${encodeURIComponent(entry.watch)}`));
      item.append(button);
      return item;
    }));
    $("lobby-games-empty").hidden = newest.length > 0 || !this.heard;
    const more = $("lobby-games-more");
    more.hidden = this.more.games === 0;
    more.textContent = tn("{count} more game is being played.", "{count} more games are being played.", this.more.games);
  }
}

/** A challenge's deal, who moves first and the time per move, in a sentence. @param {Challenge} entry @param {string} name */
export function challengeTerms(entry, name) {
  const deal = entry.deal_kind === "number" ? t("Deal {number}", { number: entry.deal })
    : entry.deal_kind === "position" ? t("A given position") : t("A random deal");
  const first = entry.first === "creator" ? t("{name} moves first", { name })
    : entry.first === "joiner" ? t("{name} moves second", { name }) : t("who moves first is drawn");
  return t("{deal}; {first}; {time}.", { deal, first, time: timeWords(entry.move_seconds) });
}

/** @param {number | null} seconds */
function timeWords(seconds) {
  if (!seconds) return t("no time limit");
  if (seconds % 86400 === 0) return tn("{count} day a move", "{count} days a move", seconds / 86400);
  if (seconds % 3600 === 0) return tn("{count} hour a move", "{count} hours a move", seconds / 3600);
  if (seconds % 60 === 0) return tn("{count} minute a move", "{count} minutes a move", seconds / 60);
  return tn("{count} second a move", "{count} seconds a move", seconds);
}
