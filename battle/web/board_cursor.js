// Where the keyboard cursor goes among the board's free tiles, as the window's cursor goes
// (battle/ui/widgets/layout.py's next_cell and nearest_cell, held equal to them by
// tests/web/test_web_board.py): an arrow jumps to the nearest free tile that way, so a move
// takes a few presses instead of one per cell. Cells are numbered column-major (rules.js).

import { ROWS } from "./rules.js";

const COLUMN_PITCH = 0.75 * 1.1; // a tile is 0.75 of its height wide, and the gap 0.10 of that
const ROW_PITCH = 1 + 0.025;

/** The cell an arrow (direction [dx, dy]) leads to from `current` among `cells`; `current` when none lies that way. */
export function nextCell(cells, current, [dx, dy]) {
  const candidates = [...new Set(cells)].sort((a, b) => a - b);
  if (!candidates.length) return null;
  if (current === null) {
    return candidates.reduce((best, cell) => ((cell % ROWS) * 100 + Math.floor(cell / ROWS)
      < (best % ROWS) * 100 + Math.floor(best / ROWS) ? cell : best));
  }
  const col = Math.floor(current / ROWS);
  const row = current % ROWS;
  let best = null;
  for (const cell of candidates) {
    const c = Math.floor(cell / ROWS);
    const r = cell % ROWS;
    const along = (c - col) * dx + (r - row) * dy;
    if (along <= 0) continue;
    const across = Math.abs((c - col) * dy) + Math.abs((r - row) * dx);
    // free tiles sit at the two ends of each column: up and down stay in the column (to its other
    // end), left and right reach the next column at a similar height
    const score = dx ? along + 0.3 * across : 0.1 * along + 3 * across;
    if (best === null || score < best[0]) best = [score, cell];
  }
  return best === null ? current : best[1];
}

/** The cell among `cells` that looks nearest to `target` on the board (ties: the first in board order). */
export function nearestCell(cells, target) {
  const col = Math.floor(target / ROWS);
  const row = target % ROWS;
  let best = null;
  for (const cell of [...new Set(cells)].sort((a, b) => a - b)) {
    const distance = Math.hypot((Math.floor(cell / ROWS) - col) * COLUMN_PITCH, ((cell % ROWS) - row) * ROW_PITCH);
    if (best === null || distance < best[0]) best = [distance, cell];
  }
  return best === null ? null : best[1];
}
