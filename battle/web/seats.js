// @ts-check
// The seats this browser holds on this server, kept in localStorage so that a reload, a
// closed tab or a visit days later returns to the game. Each entry is the seat token (the
// only proof of the seat: it goes to the server inside a `resume` message, never into a
// URL), the game it now names (a rematch moves it on), the code it joined with, and the
// moves sent but not yet acknowledged, which are sent again with the same ids.
//
// localStorage is per origin (scheme, host and port), so the server's address is implied.
//
// Beside the seats, the name this browser plays under: the host form fills it in, the joiner
// is asked it once (name_panel.js, beside the board), and every game's hello sends it. It is cleaned as the
// server cleans a name (battle/rules/game.py's clean_name): control characters and "#"
// dropped, spaces folded, 40 characters at most. So a kept name of any length fits the hello
// frame (4096 bytes): a longer one is cut, and the game screen says so.

/** A seat kept: its token, its game (and the series' earlier `games`), the moves sent without an `ack`
 * (`pending`: [id, move]), and what the home screen lists of it.
 * @typedef {{token: string, game: string, seat: number, pending: string[][], invite: string | null,
 *   watch: string | null, hosted?: boolean, solver?: string | null, offered?: boolean, status?: string,
 *   opponent?: string | null, games?: string[], updated?: number}} Seat */

const KEY = "mahjong-battle.seats";
const KEEP = 20; // the newest seats kept; a player rarely has more games going at once

/** @returns {Seat[]} */
function readAll() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(value) ? value.filter((seat) => seat && typeof seat.token === "string") : [];
  } catch {
    return []; // storage off (a private window) or damaged: the page still plays, it just forgets
  }
}

/** @param {Seat[]} seats */
function writeAll(seats) {
  try {
    localStorage.setItem(KEY, JSON.stringify(seats.slice(0, KEEP)));
  } catch {
    // full or off: the game goes on without coming back after a reload
  }
}

/** Every kept seat, newest first. */
export function allSeats() {
  return readAll().sort((a, b) => (b.updated || 0) - (a.updated || 0));
}

/** The seat whose game (or an earlier game of its series) is `game`. @param {string} game */
export function seatForGame(game) {
  return allSeats().find((seat) => seat.game === game || (seat.games || []).includes(game)) || null;
}

/** The seat taken with the invite code `code` (a reloaded /join link resumes it). @param {string} code */
export function seatForCode(code) {
  return allSeats().find((seat) => seat.invite === code) || null;
}

/** Store (or update) a seat, found by its token. @param {Seat} seat */
export function keepSeat(seat) {
  const others = readAll().filter((kept) => kept.token !== seat.token);
  const games = new Set([...(seat.games || []), seat.game]);
  writeAll([{ ...seat, games: [...games].slice(-10), updated: Date.now() }, ...others]);
}

/** @param {string | undefined} token */
export function forgetSeat(token) {
  writeAll(readAll().filter((kept) => kept.token !== token));
}

// -- the name -----------------------------------------------------------------------------

const NAME_KEY = "mahjong-battle.name";
export const MAX_NAME_LENGTH = 40;

const CONTROL = /[\p{C}#]/gu; // what clean_name drops: every control, format and unassigned character, and "#"

/** @param {string} text */
function tidy(text) {
  return String(text).replace(CONTROL, "").split(/\s+/).join(" ").trim();
}

/** `text` as the server keeps a name: one line, no "#", spaces folded, at most 40 characters. @param {string} text */
export function cleanName(text) {
  return [...tidy(text)].slice(0, MAX_NAME_LENGTH).join("").trim();
}

function readKept() {
  try {
    return localStorage.getItem(NAME_KEY);
  } catch {
    return null;
  }
}

/** The name this browser hosted or joined with last, cleaned ("" when none, or storage is off). */
export function storedName() {
  return cleanName(readKept() || "");
}

/** Whether the kept name is longer than a name may be (the game uses its first 40 characters). */
export function storedNameTooLong() {
  return [...tidy(readKept() || "")].length > MAX_NAME_LENGTH;
}

/** Whether this browser was asked for a name already (an empty answer counts: it is not asked twice). */
export function nameAsked() {
  return readKept() !== null;
}

/** Keep `name` for the next game. @param {string} name */
export function keepName(name) {
  try {
    localStorage.setItem(NAME_KEY, cleanName(name));
  } catch {
    // storage off: the name goes with this game only
  }
}
