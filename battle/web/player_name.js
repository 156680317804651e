// The name this browser plays under, kept in localStorage: the host form fills it in and the
// invite link's page sends it. Storage may be off (a private window): then every game asks.

const NAME_KEY = "mahjong-battle.name";

/** The name this browser hosted or joined with last ("" when none, or storage is off). */
export function storedName() {
  try {
    return (localStorage.getItem(NAME_KEY) || "").trim();
  } catch {
    return "";
  }
}

/** Keep `name` for the next game. */
export function keepName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // storage off: the name goes with this game only
  }
}
