// The few page-wide helpers every screen uses: an element by id, the notice above the screens (a
// refusal, a link that leads nowhere), which stays until the next screen shows, and the page's
// address, which keeps the language it was opened in (`?lang=de`) through every screen and reload.

export const $ = (id) => document.getElementById(id);

/** Show `text` in the notice box; "" hides it. */
export function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

/** `path` (a path, with a fragment or not) with this address's `?lang=` kept. */
export function withLanguage(path) {
  const language = new URLSearchParams(location.search).get("lang");
  if (!language) return path;
  const at = path.indexOf("#");
  const [base, fragment] = at < 0 ? [path, ""] : [path.slice(0, at), path.slice(at)];
  return `${base}?lang=${encodeURIComponent(language)}${fragment}`;
}

/** Show `path` as the page's address, keeping its language: a new history entry with `push`, else
 * the current one replaced. */
export function setAddress(path, push = false) {
  const address = withLanguage(path);
  if (push) history.pushState(null, "", address);
  else history.replaceState(null, "", address);
}

/** The address of the analysis board on `start` (.mbp text) after `moves`, shown at move `ply`. */
export function analysisAddress(start, moves = [], ply = moves.length) {
  return "/analysis/#" + encodeURIComponent(JSON.stringify({ start, moves, ply }));
}
