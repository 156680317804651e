// The result of a game in words, from the reader's side (you win / you lose / a draw).

import { t } from "./i18n.js";

const endings = () => ({
  no_pair: t("No pair is left"),
  resign: t("resigned"),
  time: t("ran out of time"),
});

/** One sentence for a finished game's `state`; `nameOf(state, seat)` gives a seat's name. */
export function resultText(state, nameOf) {
  const result = state.result || {};
  const scores = result.scores || state.scores || [0, 0];
  const score = `${scores[0]}-${scores[1]}`;
  if (result.reason === "aborted") return t("The game was called off; it counts for nothing.");
  if (result.reason === "expired") return t("Nobody joined in time: the game expired and counts for nothing.");
  const you = state.you;
  const winner = result.winner;
  const who = (seat) => (seat === you ? t("You") : nameOf(state, seat));
  let verdict;
  if (winner !== 1 && winner !== 2) verdict = t("A draw, {score}.", { score });
  else if (winner === you) verdict = t("You win, {score}.", { score });
  else verdict = t("{winner} wins, {score}.", { winner: nameOf(state, winner), score });
  if (result.reason === "resign") {
    const loser = 3 - winner;
    return t("{loser} {ending}. {verdict}", { loser: who(loser), ending: endings().resign, verdict });
  }
  if (result.reason === "time") {
    const loser = 3 - winner;
    return t("{loser} {ending}. {verdict}", { loser: who(loser), ending: endings().time, verdict });
  }
  return t("Game over: {reason}. {verdict}", { reason: endings().no_pair.toLowerCase(), verdict });
}
