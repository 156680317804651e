// Invite and watch codes as people type them, read the way the server reads them
// (battle/online/codes.py): Crockford's base 32, any case, spaces and dashes ignored,
// I and L read as 1 and O as 0.

import { t } from "./i18n.js";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH = 8;

/** The canonical code ("ABCDEFGH") of what a person typed; throws an Error saying what is wrong. */
export function normaliseCode(typed) {
  const code = typed.replace(/[\s-]/g, "").toUpperCase().replace(/[IL]/g, "1").replace(/O/g, "0");
  const wrong = [...code].find((ch) => !ALPHABET.includes(ch));
  if (wrong !== undefined) throw new Error(t("\"{typed}\" is not a code: \"{wrong}\" is not a letter or digit of a code", { typed, wrong }));
  if (code.length !== LENGTH) throw new Error(t("\"{typed}\" is not a code: a code has {LENGTH} characters", { typed, LENGTH }));
  return code;
}

/** A code in two halves, as the window and the terminal show it: "ABCD-EFGH". */
export function formatCode(code) {
  const half = Math.floor(code.length / 2);
  return `${code.slice(0, half)}-${code.slice(half)}`;
}
