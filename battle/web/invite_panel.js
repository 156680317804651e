// @ts-check
// The invite card while a game waits for its second player: the link to send, its codes, Copy
// link and, where the browser has the Web Share API (phones), Share; what Copy link did is said
// in the card, and goes when the card goes (the friend joined).
//
// The link is built on the address the server says a friend can reach (`welcome`'s
// `share_url`: a LAN address when this page came over loopback, or `serve --public-url`), else
// on this page's own; a link that can only work on this machine says so.
//
// Copying works on a plain http:// page from another machine, where there is no clipboard API
// (it needs a secure context): a hidden text area is selected and copied with execCommand, inside
// the click; failing that, the link itself is selected for Ctrl+C, and kept selected, because the
// card writes the link only when it changes.

import { $ } from "./dom.js";
import { formatCode } from "./codes.js";
import { t } from "./i18n.js";
/** @import { View } from "./game_view.js" */

/** Whether a URL's host names this machine only (a link to it is dead on a friend's machine). @param {string} url */
export function isLoopbackUrl(url) {
  let host;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The link a friend opens: `/join/CODE` on `shareUrl`, else on this page's own address.
 * @param {string | null} shareUrl @param {string} code */
export function friendLink(shareUrl, code, purpose = "join") {
  return `${shareUrl || location.origin}/${purpose}/${formatCode(code)}`;
}

export class InvitePanel {
  constructor() {
    $("copy-link").addEventListener("click", () => this.copy());
    $("share-link").addEventListener("click", () => this.share());
  }

  /** @param {View & {offered: boolean}} view @param {string | null} shareUrl the server's address for friends, or null */
  render(view, shareUrl) {
    const { state } = view;
    const show = state.status === "waiting" && state.you !== "spectator" && Boolean(state.invite);
    $("invite").hidden = !show;
    if (!show) {
      this.say(""); // what Copy link did is news of the card only: it goes with it
      return;
    }
    $("invite-words").textContent = view.offered
      ? t("Offered in the lobby: anyone on the home page may take it. Or send this link to a friend; the game starts when one of them opens it:")
      : t("Send this link to your friend; the game starts when they open it:");
    // the secret: a link nobody can guess
    const link = friendLink(shareUrl, /** @type {string} */ (state.invite_secret || state.invite));
    if ($("invite-link").textContent !== link) {
      $("invite-link").textContent = link;
      /** @type {HTMLAnchorElement} */ ($("invite-link")).href = link;
    }
    $("invite-here-only").hidden = !isLoopbackUrl(link);
    $("share-link").hidden = typeof navigator.share !== "function";
    $("invite-code").textContent = formatCode(/** @type {string} */ (state.invite));
    $("watch-code").textContent = formatCode(state.watch || "");
  }

  hide() {
    $("invite").hidden = true;
    this.say("");
  }

  /** What Copy link did, in the card under its buttons. @param {string} words */
  say(words) {
    $("invite-said").textContent = words;
    $("invite-said").hidden = !words;
  }

  link() {
    return $("invite-link").textContent;
  }

  copy() {
    const link = this.link();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link).then(
        () => this.say(t("Link copied: paste it to your friend.")),
        () => this.copyByHand(link),
      );
      return;
    }
    this.copyByHand(link);
  }

  /** Without the clipboard API: a selected text area copied inside the click, else the link selected. @param {string} link */
  copyByHand(link) {
    const area = document.createElement("textarea");
    area.value = link;
    area.readOnly = true; // no keyboard pops up on a phone
    area.className = "offscreen";
    document.body.append(area);
    area.select();
    area.setSelectionRange(0, link.length);
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
    area.remove();
    $("copy-link").focus();
    if (copied) {
      this.say(t("Link copied: paste it to your friend."));
      return;
    }
    const range = document.createRange();
    range.selectNodeContents($("invite-link"));
    const selection = /** @type {Selection} */ (getSelection()); // null only in a hidden frame
    selection.removeAllRanges();
    selection.addRange(range);
    this.say(t("The link is selected: copy it with Ctrl+C (or long-press on a phone)."));
  }

  share() {
    navigator.share({ title: document.title, url: this.link() }).catch(() => {
      // the player closed the share sheet: nothing to say
    });
  }
}
