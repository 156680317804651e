// @ts-check
// Invite and watch codes as people type them, and the 32-character secrets links carry, read
// the way the server reads them (battle/online/protocol/codes.py): Crockford's base 32, any
// case, spaces and dashes ignored, I and L read as 1 and O as 0.

import { t } from "./i18n.js";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH = 8;
const QUOTED = 12; // characters of a wrong code a message quotes: a link may carry thousands

/** A wrong code, quoted safely: control and format characters left out, at most 12 characters and "…".
 * @param {string} typed */
export function quoteCode(typed) {
  const shown = [...String(typed).replace(/[\p{C}\u2028\u2029]/gu, "")];
  return `"${shown.slice(0, QUOTED).join("")}${shown.length > QUOTED ? "…" : ""}"`;
}

/** A character in words: itself when it shows, its code point ("U+0000") when it does not. @param {string} ch */
function quoteCharacter(ch) {
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(ch) ? `"${ch}"`
    : `U+${/** @type {number} */ (ch.codePointAt(0)).toString(16).toUpperCase().padStart(4, "0")}`;
}
const LINK_LENGTH = 32; // a link's secret: the code and 24 characters only the server can make

/** The canonical code ("ABCDEFGH") of what a person typed, or of a link's secret; throws an Error saying what is wrong.
 * @param {string} typed */
export function normaliseCode(typed) {
  const code = typed.replace(/[\s-]/g, "").toUpperCase().replace(/[IL]/g, "1").replace(/O/g, "0");
  const wrong = [...code].find((ch) => !ALPHABET.includes(ch));
  if (wrong !== undefined) {
    throw new Error(t("{typed} is not a code: {wrong} is not a letter or digit of a code",
      { typed: quoteCode(typed), wrong: quoteCharacter(wrong) }));
  }
  if (code.length !== LENGTH && code.length !== LINK_LENGTH) {
    throw new Error(t("{typed} is not a code: a code has {LENGTH} characters", { typed: quoteCode(typed), LENGTH }));
  }
  return code;
}

/** A code in two halves, as the window and the terminal show it: "ABCD-EFGH"; a link's secret so, then the rest.
 * @param {string} code */
export function formatCode(code) {
  const shown = `${code.slice(0, LENGTH / 2)}-${code.slice(LENGTH / 2, LENGTH)}`;
  return code.length > LENGTH ? `${shown}-${code.slice(LENGTH)}` : shown;
}

const REVIEW_ID = /^[0-9a-f]{16}$/;

/** Whether `text` is a review's id as its link carries it (/review/ID): 16 hex digits. @param {string} text */
export function isReviewId(text) {
  return REVIEW_ID.test(text);
}
