// The invite card while a game waits for its second player: the link to send, its codes, and
// Copy link.

import { $ } from "./dom.js";
import { formatCode } from "./codes.js";
import { t } from "./i18n.js";

function inviteLink(code) {
  return `${location.origin}/join/${formatCode(code)}`;
}

export class InvitePanel {
  /** @param say (words) puts a note in the turn line */
  constructor(say) {
    this.say = say;
    $("copy-link").addEventListener("click", () => this.copy());
  }

  render(view) {
    const { state } = view;
    const show = state.status === "waiting" && state.you !== "spectator" && Boolean(state.invite);
    $("invite").hidden = !show;
    if (!show) return;
    const link = inviteLink(state.invite);
    $("invite-link").textContent = link;
    $("invite-link").href = link;
    $("invite-code").textContent = formatCode(state.invite);
    $("watch-code").textContent = formatCode(state.watch || "");
  }

  hide() {
    $("invite").hidden = true;
  }

  async copy() {
    const link = $("invite-link").textContent;
    try {
      await navigator.clipboard.writeText(link);
      this.say(t("Link copied: paste it to your friend."));
    } catch {
      // no clipboard API on plain http from another machine: select the link for Ctrl+C
      const range = document.createRange();
      range.selectNodeContents($("invite-link"));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      this.say(t("The link is selected: copy it with Ctrl+C (or long-press on a phone)."));
    }
  }
}
