// @ts-check
// The few page-wide helpers every screen uses: an element by id, the notice above the screens (a
// refusal, a link that leads nowhere), which stays until the next screen shows, and the page's
// address, which keeps the language it was opened in (`?lang=de`) through every screen and reload,
// and the server group its game is on (`?at=b`, docs/deploy.md "Two machines"), so a reload
// connects straight to that group.
/** @import { Router } from "./app.js" */

/** The element of id `id`, which index.html holds for every id a module asks for.
 * @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A screen of its own section of index.html that asks the server over a socket of its own while it
 * shows; hiding it closes the socket, which says `leaving` (in the reader's language) on the line.
 * @template {{close(detail: string): void}} S
 */
export class ServerScreen {
  /** @param {Router} app @param {string} id its section's id @param {string} leaving */
  constructor(app, id, leaving) {
    this.app = app;
    this.element = $(id);
    /** @type {S | null} */
    this.socket = null;
    this.leaving = leaving;
  }

  hide() {
    this.element.hidden = true;
    if (this.socket) this.socket.close(this.leaving);
    this.socket = null;
  }
}

/** A form read by its controls' names (an input, a radio group, a select: each has a `value`).
 * @typedef {HTMLFormElement & {elements: Record<string, HTMLInputElement>}} Form */

/** Give each select marked `data-options-of` a copy of the options of the select of that id: a list
 * offered in two forms (the levels, who moves first) is written once in index.html. */
export function copyOptions() {
  for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("[data-options-of]"))) {
    select.replaceChildren(...Array.from($(/** @type {string} */ (select.dataset.optionsOf)).children, (option) => option.cloneNode(true)));
  }
}

/** Show `text` in the notice box; "" hides it. @param {string} text */
export function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

const KEPT = ["lang", "at"];

/** `path` (a path, with a fragment or not) with this address's `?lang=` and `?at=` kept. @param {string} path */
export function withLanguage(path) {
  const current = new URLSearchParams(location.search);
  const kept = new URLSearchParams();
  for (const name of KEPT) if (current.get(name)) kept.set(name, /** @type {string} */ (current.get(name)));
  const query = kept.toString();
  if (!query) return path;
  const cut = path.indexOf("#");
  const [base, fragment] = cut < 0 ? [path, ""] : [path.slice(0, cut), path.slice(cut)];
  return `${base}?${query}${fragment}`;
}

/** Keep `group` as the server group in the page's address (`?at=`), the current entry replaced. @param {string} group */
export function keepGroup(group) {
  const current = new URLSearchParams(location.search);
  current.set("at", group);
  history.replaceState(null, "", `${location.pathname}?${current}${location.hash}`);
}

/** Show `path` as the page's address, keeping its language: a new history entry with `push`, else
 * the current one replaced. @param {string} path */
export function setAddress(path, push = false) {
  const address = withLanguage(path);
  if (push) history.pushState(null, "", address);
  else history.replaceState(null, "", address);
}

/** The address of the analysis board on `start` (.mbp text) after `moves`, shown at move `ply`.
 * @param {string} start @param {string[]} moves */
export function analysisAddress(start, moves = [], ply = moves.length) {
  return "/analysis/#" + encodeURIComponent(JSON.stringify({ start, moves, ply }));
}
