// The few page-wide helpers every screen uses: an element by id, and the notice above the
// screens (a refusal, a link that leads nowhere), which stays until the next screen shows.

export const $ = (id) => document.getElementById(id);

/** Show `text` in the notice box; "" hides it. */
export function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}
