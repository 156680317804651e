// The page: reads its address (/, /join/CODE, /watch/CODE, /play/GAME) and shows the screen it
// names. Each screen is a module of its own (home_screen.js, game_screen.js) with `show`/`open`
// and `hide`; a new screen is a new module, a section in index.html and a line in ROUTES.

import { GameScreen } from "./game_screen.js";
import { HomeScreen } from "./home_screen.js";
import { normaliseCode } from "./codes.js";
import { seatForCode, seatForGame } from "./seats.js";
import { loadLanguage, t, translatePage } from "./i18n.js";
import { showLine } from "./line_status.js";
import { storedName } from "./player_name.js";

/** What each address's first part opens: (app, the rest of the address). */
const ROUTES = {
  join(app, value) {
    const code = app.codeOf(value);
    if (code === null) return;
    const seat = seatForCode(code);
    if (seat) app.openGame("resume", { seat, code });
    else app.openGame("join", { opening: { type: "join", code, ...nameField() }, code });
  },
  watch(app, value) {
    const code = app.codeOf(value);
    if (code !== null) app.openGame("watch", { opening: { type: "watch", code }, code });
  },
  play(app, value) {
    const seat = seatForGame(value);
    if (seat) app.openGame("resume", { seat });
    else app.showHome(t("This browser holds no seat in that game. Open the invite link again, or host a new game."));
  },
};

function nameField() {
  const name = storedName();
  return name ? { name } : {};
}

class App {
  constructor() {
    this.home = new HomeScreen(this);
    this.game = new GameScreen(this);
  }

  route() {
    const [, kind, value] = location.pathname.split("/");
    const open = ROUTES[kind];
    if (open && value) open(this, value);
    else this.showHome("");
  }

  go(path) {
    history.pushState(null, "", path);
    this.route();
  }

  showHome(message) {
    this.game.hide();
    showLine(null);
    this.home.show(message);
  }

  openGame(purpose, options) {
    this.home.hide();
    this.game.open(purpose, options);
  }

  /** The code of an address's last part, or null when it does not read (the home screen says why). */
  codeOf(value) {
    try {
      return normaliseCode(decodeURIComponent(value));
    } catch (error) {
      this.showHome(t("This link's code does not read: {message}. Check the link, or ask for a new one.", { message: error.message }));
      return null;
    }
  }
}

async function start() {
  await loadLanguage(); // the page in the reader's language before anything is shown
  translatePage(document);
  const app = new App();
  window.addEventListener("popstate", () => app.route());
  app.route();
}

start();
