// @ts-check
// The board: 12 x 9 buttons that show the position they are given and report which cell
// the player picked (chessground's split: it renders state and reports intent, the page
// decides what to send). Tile faces come from tiles.png, rendered by tools/web_tiles.py
// from the window's own tile art.
//
// Column letters a-l above and row numbers 1-9 beside the tiles name the cells as the moves
// are written (c1-c9). The arrow keys jump between free tiles as the window's cursor does
// (nextCell and nearestCell below); Enter or Space picks the tile in focus.
//
// What a tile is never rests on colour alone: a blocked tile is dimmed and says "blocked";
// a playable one (free, with a free twin) stands on a gold bar; the picked one is lifted
// and framed, its twins get a dashed frame; the last pair's empty cells carry corner
// brackets and the mover's shape (player 1's circle, player 2's diamond), as in the window.

import { COLS, EMPTY, LETTERS, ROWS, cellIndex, cellName, kindValue } from "./rules.js";
import { t, tn } from "./i18n.js";
import { tileWords } from "./tile_words.js";

const SHAPES = ["●", "◆"];
// tiles.png (tools/web_tiles.py): nine tiles a row in kind order, each 96 x 128 in a 4 px gutter;
// style.css scales the sheet so that 96 sheet pixels are one tile width (--tile-w)
const SHEET = { perRow: 9, tileW: 96, tileH: 128, gutter: 4 };

export class BoardView {
  /** @param {HTMLElement} element
   * @param {(cell: number) => void} onPick called with a cell number when the player picks a tile */
  constructor(element, onPick) {
    this.element = element;
    this.onPick = onPick;
    this.buttons = [];
    this.focusCell = null;
    /** @type {number[]} */
    this.free = [];
    const letters = document.createElement("div");
    letters.className = "board-letters";
    letters.setAttribute("aria-hidden", "true");
    letters.append(label("corner", ""));
    for (let col = 0; col < COLS; col++) letters.append(label("col-label", LETTERS[col]));
    element.append(letters);
    for (let row = 0; row < ROWS; row++) {
      const rowElement = document.createElement("div");
      rowElement.className = "board-row";
      rowElement.setAttribute("role", "row");
      const number = label("row-label", String(row + 1));
      number.setAttribute("aria-hidden", "true");
      rowElement.append(number);
      for (let col = 0; col < COLS; col++) {
        const cell = cellIndex(col, row);
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cell";
        button.dataset.cell = cellName(cell);
        button.setAttribute("role", "gridcell");
        button.setAttribute("aria-label", t("{cell}, empty", { cell: cellName(cell) })); // until a position shows
        button.setAttribute("aria-selected", "false");
        button.tabIndex = -1;
        const mark = document.createElement("span");
        mark.className = "mark";
        mark.setAttribute("aria-hidden", "true");
        button.append(mark);
        button.addEventListener("click", () => this.onPick(cell));
        button.addEventListener("focus", () => this.setFocus(cell, false));
        this.buttons[cell] = button;
        rowElement.append(button);
      }
      element.append(rowElement);
    }
    element.addEventListener("keydown", (event) => this.key(event));
  }

  /**
   * Show a view; `active`: whether picking is possible now.
   * @param {{cells: number[], free: Set<number>, playable: Set<number>, selected: number | null, twins: Set<number>,
   *   lastMove: number[] | null, lastMover: number, active: boolean}} view
   */
  render(view) {
    for (let cell = 0; cell < this.buttons.length; cell++) {
      const button = this.buttons[cell];
      const kind = view.cells[cell];
      const name = cellName(cell);
      const classes = ["cell"];
      let label;
      let markText = "";
      if (kind === EMPTY) {
        classes.push("empty");
        label = t("{cell}, empty", { cell: name });
        if (view.lastMove && view.lastMove.includes(cell)) {
          classes.push("last", `last-p${view.lastMover}`);
          markText = SHAPES[view.lastMover - 1];
          label += t(": last move, by player {lastMover}", { lastMover: view.lastMover });
        }
        button.style.backgroundPosition = "";
      } else {
        classes.push("tile");
        const free = view.free.has(cell);
        const playable = view.playable.has(cell);
        classes.push(playable ? "playable" : free ? "free" : "blocked");
        if (view.selected === cell) classes.push("selected");
        if (view.twins.has(cell)) classes.push("twin");
        const state = view.selected === cell ? t("picked") : playable ? t("free, playable")
          : free ? t("free, no twin free") : t("blocked");
        label = t("{tile} at {cell}, {state}, {points}", {
          tile: tileWords(kind), cell: name, state,
          points: tn("{count} point", "{count} points", kindValue(kind)),
        });
        const x = (kind % SHEET.perRow) * (SHEET.tileW + 2 * SHEET.gutter) + SHEET.gutter;
        const y = Math.floor(kind / SHEET.perRow) * (SHEET.tileH + 2 * SHEET.gutter) + SHEET.gutter;
        button.style.backgroundPosition = `calc(var(--tile-w) * ${-x / SHEET.tileW}) `
          + `calc(var(--tile-w) * ${-y / SHEET.tileW})`;
      }
      if (view.active) classes.push("active");
      const className = classes.join(" ");
      if (button.className !== className) button.className = className;
      if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
      const mark = /** @type {Node} */ (button.firstChild); // the constructor's span
      if (mark.textContent !== markText) mark.textContent = markText;
      button.setAttribute("aria-selected", view.selected === cell ? "true" : "false");
    }
    this.free = [...view.free];
    if (this.focusCell === null) this.setFocus(view.playable.values().next().value ?? this.free[0] ?? 0, false);
    else if (view.cells[this.focusCell] === EMPTY && this.free.length) {
      // the tile in focus is gone (either side's move): focus goes on from the nearest free tile
      const focused = document.activeElement === this.buttons[this.focusCell];
      this.setFocus(/** @type {number} */ (nearestCell(this.free, this.focusCell)), focused);
    }
  }

  /** @param {number} cell */
  setFocus(cell, move = true) {
    if (this.focusCell !== null && this.buttons[this.focusCell]) this.buttons[this.focusCell].tabIndex = -1;
    this.focusCell = cell;
    this.buttons[cell].tabIndex = 0;
    if (move) this.buttons[cell].focus();
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    /** @type {Record<string, number[]>} */
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[event.key];
    if (!step || this.focusCell === null) return;
    event.preventDefault();
    const onATile = this.free.includes(this.focusCell);
    const next = onATile ? nextCell(this.free, this.focusCell, step) : nearestCell(this.free, this.focusCell);
    if (next !== null) this.setFocus(next);
  }
}

/** @param {string} className @param {string} text */
function label(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

// -- the keyboard cursor ------------------------------------------------------------------
// Where the cursor goes among the free tiles, as the window's cursor goes (battle/ui/widgets/
// layout.py's next_cell and nearest_cell, held equal to them by tests/web/test_web_screen.py):
// an arrow jumps to the nearest free tile that way, so a move takes a few presses, not one a cell.

const COLUMN_PITCH = 0.75 * 1.1; // a tile is 0.75 of its height wide, and the gap 0.10 of that
const ROW_PITCH = 1 + 0.025;

/** The cell an arrow (direction [dx, dy]) leads to from `current` among `cells`; `current` when none lies that way.
 * @param {number[]} cells @param {number | null} current @param {number[]} step */
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

/** The cell among `cells` that looks nearest to `target` on the board (ties: the first in board order).
 * @param {number[]} cells @param {number} target */
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
