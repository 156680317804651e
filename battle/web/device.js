// @ts-check
// The browser's device key: a random 128-bit token kept in local storage, which names this
// browser's puzzle rating and statistics on the server (no account). Whoever holds it reads them.
const KEY = "mahjong-battle-device";

/** This browser's device key (32 hex digits), made on first use. */
export function deviceKey() {
  let key = localStorage.getItem(KEY);
  if (!/^[0-9a-f]{32}$/.test(key || "")) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(KEY, key);
  }
  return /** @type {string} */ (key);
}
