// The seats this browser holds on this server, kept in localStorage so that a reload, a
// closed tab or a visit days later returns to the game. Each entry is the seat token (the
// only proof of the seat: it goes to the server inside a `resume` message, never into a
// URL), the game it now names (a rematch moves it on), the code it joined with, and the
// moves sent but not yet acknowledged, which are sent again with the same ids.
//
// localStorage is per origin (scheme, host and port), so the server's address is implied.

const KEY = "mahjong-battle.seats";
const KEEP = 20; // the newest seats kept; a player rarely has more games going at once

function readAll() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(value) ? value.filter((seat) => seat && typeof seat.token === "string") : [];
  } catch {
    return []; // storage off (a private window) or damaged: the page still plays, it just forgets
  }
}

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

/** The seat whose game (or an earlier game of its series) is `game`. */
export function seatForGame(game) {
  return allSeats().find((seat) => seat.game === game || (seat.games || []).includes(game)) || null;
}

/** The seat taken with the invite code `code` (a reloaded /join link resumes it). */
export function seatForCode(code) {
  return allSeats().find((seat) => seat.invite === code) || null;
}

/** Store (or update) a seat, found by its token. */
export function keepSeat(seat) {
  const others = readAll().filter((kept) => kept.token !== seat.token);
  const games = new Set([...(seat.games || []), seat.game]);
  writeAll([{ ...seat, games: [...games].slice(-10), updated: Date.now() }, ...others]);
}

export function forgetSeat(token) {
  writeAll(readAll().filter((kept) => kept.token !== token));
}
