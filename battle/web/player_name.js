// The name this browser plays under, kept in localStorage: the host form fills it in, the
// joiner is asked it once (join_screen.js), and every game's hello sends it. Storage may be off
// (a private window): then each join asks again.
//
// A name is cleaned as the server cleans it (battle/rules/game.py's clean_name): control
// characters and "#" dropped, spaces folded, 40 characters at most. So a kept name of any length
// fits the hello frame (4096 bytes): a longer one is cut, and the game screen says so.

const NAME_KEY = "mahjong-battle.name";
export const MAX_NAME_LENGTH = 40;

const CONTROL = /[\u0000-\u001f\u007f-\u009f#]/g;

function tidy(text) {
  return String(text).replace(CONTROL, "").split(/\s+/).join(" ").trim();
}

/** `text` as the server keeps a name: one line, no "#", spaces folded, at most 40 characters. */
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

/** Keep `name` for the next game. */
export function keepName(name) {
  try {
    localStorage.setItem(NAME_KEY, cleanName(name));
  } catch {
    // storage off: the name goes with this game only
  }
}
