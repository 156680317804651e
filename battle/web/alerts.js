// @ts-check
// Telling a player who looks elsewhere: the host who sent the link and switched to a chat app
// learns that the friend joined, moved or asked something. While the tab is hidden each piece of
// news counts in the title ("(2) Bob moved: your turn.") and in a badge on the tab's icon; a short
// chime sounds if the player turned sound on (a setting kept in this browser); and a system
// notification shows where the player allowed them (browsers allow them on https:// and on
// localhost only). Showing the tab again clears the count.
//
// The chime is made by the Web Audio API (two sine tones): no sound file, nothing fetched.

import { $ } from "./dom.js";
import { resultText } from "./server_words.js";
import { t } from "./i18n.js";
/** @import { State } from "./socket.js" */

const SOUND_KEY = "mahjong-battle.sound";
const ICON_SIZE = 32;

function soundWanted() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function keepSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // storage off: the setting holds for this page only
  }
}

/** The tab's icon as a PNG data URL: a tile in ivory and gold, with a red badge when `count` > 0. @param {number} count */
function icon(count) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = ICON_SIZE;
  const pen = canvas.getContext("2d");
  if (!pen) return "data:,";
  pen.fillStyle = "rgb(243, 236, 216)";
  pen.strokeStyle = "rgb(218, 178, 82)";
  pen.lineWidth = 3;
  pen.beginPath();
  pen.roundRect(5, 2, 22, 28, 4);
  pen.fill();
  pen.stroke();
  pen.fillStyle = "rgb(22, 92, 60)";
  pen.beginPath();
  pen.arc(16, 16, 5, 0, 2 * Math.PI);
  pen.fill();
  if (count > 0) {
    pen.fillStyle = "rgb(220, 40, 40)";
    pen.beginPath();
    pen.arc(23, 9, 9, 0, 2 * Math.PI);
    pen.fill();
    pen.fillStyle = "white";
    pen.font = "bold 13px sans-serif";
    pen.textAlign = "center";
    pen.textBaseline = "middle";
    pen.fillText(count > 9 ? "9+" : String(count), 23, 10);
  }
  return canvas.toDataURL("image/png");
}

export class Alerts {
  constructor() {
    this.title = document.title;
    this.count = 0;
    this.audio = null;
    this.setIcon(0);
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.clear();
    });
    const sound = /** @type {HTMLInputElement} */ ($("alert-sound"));
    sound.checked = soundWanted();
    sound.addEventListener("change", () => {
      keepSound(sound.checked);
      if (sound.checked) this.chime(); // a sample, and the click lets the page play sound later
    });
    $("alert-notify").addEventListener("click", () => {
      Notification.requestPermission().then(() => this.showNotifyButton());
    });
    this.showNotifyButton();
  }

  /** Tell `words` if the page is out of sight; nothing happens while the player looks at it. @param {string} words */
  tell(words) {
    if (!document.hidden) return;
    this.count += 1;
    document.title = `(${this.count}) ${words} · ${this.title}`;
    this.setIcon(this.count);
    if (soundWanted()) this.chime();
    if (typeof Notification === "function" && Notification.permission === "granted") {
      try {
        new Notification(this.title, { body: words, tag: "mahjong-battle", icon: icon(0) });
      } catch {
        // a browser that shows notifications only from a service worker: the title tells it
      }
    }
  }

  clear() {
    this.count = 0;
    document.title = this.title;
    this.setIcon(0);
  }

  /** @param {number} count */
  setIcon(count) {
    const link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel=icon]"));
    if (link) link.href = icon(count);
  }

  /** "Notify me" while the browser has notifications to offer and the player has not answered yet. */
  showNotifyButton() {
    const offered = typeof Notification === "function" && window.isSecureContext && Notification.permission === "default";
    $("alert-notify").hidden = !offered;
  }

  chime() {
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return;
    try {
      this.audio = this.audio || new Context();
      const audio = this.audio;
      if (audio.state === "suspended") audio.resume();
      const start = audio.currentTime;
      for (const [offset, pitch] of [[0, 880], [0.16, 1175]]) {
        const tone = audio.createOscillator();
        const volume = audio.createGain();
        tone.frequency.value = pitch;
        volume.gain.setValueAtTime(0.0001, start + offset);
        volume.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.02);
        volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
        tone.connect(volume).connect(audio.destination);
        tone.start(start + offset);
        tone.stop(start + offset + 0.32);
      }
    } catch {
      // no sound here: the title and the icon still tell
    }
  }
}

/** The words for what the opponent did, as the alerts tell it; null for nothing worth telling.
 * @param {State | null} before @param {State} after @param {State["you"]} you
 * @param {(state: State, seat: number) => string} nameOf */
export function news(before, after, you, nameOf) {
  if (!after || (you !== 1 && you !== 2)) return null;
  const opponent = 3 - you;
  const name = nameOf(after, opponent);
  if (before && before.status === "waiting" && after.status === "playing") {
    return t("{opponent} joined: the game begins.", { opponent: name });
  }
  const ply = after.moves?.length ?? 0;
  if (before && ply === (before.moves?.length ?? 0) + 1 && after.status === "playing" && after.to_move === you) {
    return t("{opponent} moved: your turn.", { opponent: name });
  }
  if (before && before.status === "playing" && after.status === "finished") return resultText(after);
  const offers = after.offers || {};
  /** @type {Partial<State["offers"]>} */
  const earlier = before?.offers || {};
  if (offers.takeback === opponent && earlier.takeback !== opponent) {
    return t("{opponent} asks to take back their last move. Allow it?", { opponent: name });
  }
  if (offers.rematch === opponent && earlier.rematch !== opponent) {
    return t("{opponent} offers a rematch: the same deal, sides swapped. Play it?", { opponent: name });
  }
  return null;
}
