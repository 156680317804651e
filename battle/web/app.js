// @ts-check
// The page: reads its address (/, /join/CODE, /watch/CODE, /play/GAME, /analysis/#POSITION, /stats/,
// /review/ID, /puzzles/ and /puzzles/ID) and shows the screen it names. Each screen is a module of its own (home_screen.js,
// game_screen.js, analysis_screen.js, review_screen.js) with `show` and `hide`; a new screen is a
// new module, a section in index.html, an entry in `screens` and, when an address names it, a line
// in ROUTES. A friend's link opens its game at once: the name is asked beside the board
// (name_panel.js), never before it.

import { GameScreen } from "./game_screen.js";
import { HomeScreen } from "./home_screen.js";
import { isReviewId, normaliseCode, quoteCode } from "./codes.js";
import { openings } from "./socket.js";
import { setAddress, withLanguage } from "./dom.js";
import { seatForCode, seatForGame, storedName } from "./seats.js";
import { loadLanguage, t, translatePage } from "./i18n.js";

/** What a screen module gives: `show` (with what its address names) and `hide`.
 * @typedef {{show(...args: any[]): void, hide(): void}} Screen */

/** The screens an invite link never shows, loaded when an address first names them: a friend's link
 * fetches two modules fewer and builds no second board of 108 buttons before its own board shows.
 * @type {Record<string, () => Promise<new (app: App) => Screen>>} */
const LATER = {
  analysis: () => import("./analysis_screen.js").then((module) => module.AnalysisScreen),
  review: () => import("./review_screen.js").then((module) => module.ReviewScreen),
  stats: () => import("./stats_screen.js").then((module) => module.StatsScreen),
  puzzles: () => import("./puzzle_screen.js").then((module) => module.PuzzleScreen),
};

/** Addresses whose first part is enough: the analysis board's position is in the fragment. */
const WHOLE_WITHOUT_VALUE = new Set(["analysis", "stats", "puzzles"]);

/** What each address's first part opens: (app, the rest of the address).
 * @type {Partial<Record<string, (app: App, value: string) => void>>} */
const ROUTES = {
  join(app, value) {
    const code = app.codeOf(value);
    if (code === null) return;
    const seat = seatForCode(code);
    if (seat) app.openGame("resume", { seat, code });
    else app.openGame("join", { opening: openings.join(code, storedName()), code });
  },
  watch(app, value) {
    const code = app.codeOf(value);
    if (code !== null) app.openGame("watch", { opening: openings.watch(code), code });
  },
  analysis(app) {
    app.show("analysis");
  },
  review(app, value) {
    if (isReviewId(value)) app.show("review", value);
    else app.showHome(t("This review link does not read: check the link."));
  },
  stats(app) {
    app.show("stats");
  },
  puzzles(app, value) {
    if (!value) app.show("puzzles", null);
    else if (/^[0-9a-f]{10}$/.test(value)) app.show("puzzles", value);
    else app.showHome(t("This puzzle link does not read: check the link."));
  },
  play(app, value) {
    const seat = seatForGame(value);
    if (seat) app.openGame("resume", { seat });
    else app.showHome(t("This browser holds no seat in that game. Open the invite link again, or host a new game."));
  },
};

class App {
  constructor() {
    /** @type {Record<string, Screen>} */
    this.screens = { home: new HomeScreen(this), game: new GameScreen(this) };
    this.asked = 0; // the screens asked for: a later one wins over one still loading
  }

  route() {
    const [, kind, value] = location.pathname.split("/");
    const open = ROUTES[kind];
    if (open && (value || WHOLE_WITHOUT_VALUE.has(kind))) open(this, value);
    else if (open) this.showHome(t("This link is cut short: its code is missing. Check the link, or ask for a new one."));
    else this.showHome("");
  }

  /** @param {string} path */
  go(path) {
    setAddress(path, true);
    this.route();
  }

  /** Show the screen `name` with `args`, every other one hidden first (a game's connection closes):
   * a game's message while a module loads would put the game's address back.
   * @param {string} name @param {...any} args */
  async show(name, ...args) {
    const asked = ++this.asked;
    for (const [other, screen] of Object.entries(this.screens)) if (other !== name) screen.hide();
    if (!this.screens[name]) {
      const Screen = await LATER[name]();
      this.screens[name] = this.screens[name] || new Screen(this);
      if (asked !== this.asked) return;
    }
    this.screens[name].show(...args);
  }

  /** @param {string} message */
  showHome(message) {
    this.show("home", message);
  }

  /** @param {string} purpose @param {Parameters<GameScreen["show"]>[1]} options */
  openGame(purpose, options) {
    this.show("game", purpose, options);
  }

  /** The code of an address's last part, or null when it does not read (the home screen says why).
   * @param {string} value */
  codeOf(value) {
    let typed = value;
    try {
      typed = decodeURIComponent(value);
    } catch {
      // not percent-encoding as a URL has it: the text as it stands is what does not read
    }
    try {
      return normaliseCode(typed);
    } catch {
      this.showHome(t("This link's code {code} does not read: check the link, or ask for a new one.", { code: quoteCode(typed) }));
      return null;
    }
  }
}

/** The router the screens are given. @typedef {App} Router */

async function start() {
  await loadLanguage(); // the page in the reader's language before anything is shown
  translatePage(document);
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll("a[href^='/']"))) {
    link.href = withLanguage(/** @type {string} */ (link.getAttribute("href")));
  }
  const app = new App();
  window.addEventListener("popstate", () => app.route());
  app.route();
  // a section named in the address (the header's Lobby: /#lobby) is shown now that its screen is
  const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target && !target.closest("[hidden]")) target.scrollIntoView();
}

start();
