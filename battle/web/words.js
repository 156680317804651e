// The result of a game in words, from the reader's side (you win / you lose / a draw).

const ENDINGS = {
  no_pair: "No pair is left",
  resign: "resigned",
  time: "ran out of time",
};

/** One sentence for a finished game's `state`; `nameOf(state, seat)` gives a seat's name. */
export function resultText(state, nameOf) {
  const result = state.result || {};
  const scores = result.scores || state.scores || [0, 0];
  const score = `${scores[0]}-${scores[1]}`;
  if (result.reason === "aborted") return "The game was called off; it counts for nothing.";
  if (result.reason === "expired") return "Nobody joined in time: the game expired and counts for nothing.";
  const you = state.you;
  const winner = result.winner;
  const who = (seat) => (seat === you ? "You" : nameOf(state, seat));
  let verdict;
  if (winner !== 1 && winner !== 2) verdict = `A draw, ${score}.`;
  else if (winner === you) verdict = `You win, ${score}.`;
  else verdict = `${nameOf(state, winner)} wins, ${score}.`;
  if (result.reason === "resign") {
    const loser = 3 - winner;
    return `${who(loser)} ${ENDINGS.resign}. ${verdict}`;
  }
  if (result.reason === "time") {
    const loser = 3 - winner;
    return `${who(loser)} ${ENDINGS.time}. ${verdict}`;
  }
  return `Game over: ${ENDINGS.no_pair.toLowerCase()}. ${verdict}`;
}
