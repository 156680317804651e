// @ts-check
// The rules of Mahjong Battle for the page: tiles, cells, moves in notation, a position
// read from the server's `.mbp` text, free tiles, legal pairs, points and the end.
//
// A mirror of `battle.rules` (board.py, tiles.py, notation.py), held equal to it by
// tests/web/test_web_rules.py on 1,000+ positions. The page uses it only to show the board
// and to offer the pairs that can be taken; the server checks every move again and is
// the only one that decides.
//
// Cells are numbered column-major like the Python model: cell = col * 9 + row, so sorting
// moves by their cell numbers is the notation's board order (column first, then row).

export const COLS = 12;
export const ROWS = 9;
export const CELL_COUNT = COLS * ROWS;
export const EMPTY = -1;
export const SUITS = "mps";
export const SUIT_NAMES = { m: "characters", p: "circles", s: "bamboo" };
export const LETTERS = "abcdefghijkl";

/** A position: `cells` (column-major kinds, EMPTY for none), the seat `toMove` (1 or 2), both `scores`.
 * @typedef {{cells: number[], toMove: number, scores: number[]}} Position */

// -- tiles --------------------------------------------------------------------------------

/** The two-character name of a kind (0-26): "5p"; ".." for an empty cell. @param {number} kind */
export function kindName(kind) {
  return kind === EMPTY ? ".." : `${(kind % 9) + 1}${SUITS[Math.floor(kind / 9)]}`;
}

/** Points a pair of this kind scores: its face value, 1 to 9. @param {number} kind */
export function kindValue(kind) {
  return (kind % 9) + 1;
}

/** The kind of a tile name ("5p"), EMPTY for "..", or null for anything else. @param {string} text */
export function parseKind(text) {
  if (text === "..") return EMPTY;
  if (text.length !== 2 || !"123456789".includes(text[0]) || !SUITS.includes(text[1])) return null;
  return SUITS.indexOf(text[1]) * 9 + Number(text[0]) - 1;
}

// -- cells and moves ----------------------------------------------------------------------

/** @param {number} col @param {number} row */
export function cellIndex(col, row) {
  return col * ROWS + row;
}

/** @param {number} cell */
export function cellCol(cell) {
  return Math.floor(cell / ROWS);
}

/** @param {number} cell */
export function cellRow(cell) {
  return cell % ROWS;
}

/** "a1" is the top-left cell, "l9" the bottom-right. @param {number} cell */
export function cellName(cell) {
  return `${LETTERS[cellCol(cell)]}${cellRow(cell) + 1}`;
}

/** The cell of a name such as "c7", or null. @param {string} text */
export function parseCell(text) {
  if (text.length !== 2 || !LETTERS.includes(text[0]) || !"123456789".includes(text[1])) return null;
  return cellIndex(LETTERS.indexOf(text[0]), Number(text[1]) - 1);
}

/** A move [a, b] with a < b, from "c1-c9", "c9 c1", ...; null if it is not two different cells. @param {string} text */
export function parseMove(text) {
  const parts = text.replace(/-/g, " ").trim().split(/\s+/);
  if (parts.length !== 2) return null;
  const a = parseCell(parts[0]);
  const b = parseCell(parts[1]);
  if (a === null || b === null || a === b) return null;
  return a < b ? [a, b] : [b, a];
}

/** @param {number[]} move */
export function moveName(move) {
  return `${cellName(move[0])}-${cellName(move[1])}`;
}

// -- positions ----------------------------------------------------------------------------

/**
 * A position from `.mbp` text: {cells (column-major kinds), toMove, scores}.
 * Throws an Error naming the line for text that is not a position.
 * @param {string} text @returns {Position}
 */
export function parsePosition(text) {
  /** @type {number | null} */
  let toMove = null;
  /** @type {number[] | null} */
  let scores = null;
  /** @type {(number | null)[][]} */
  const rows = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.split("#")[0].trim();
    if (!line) return;
    const header = /^([a-z-]+):\s*(.*)$/.exec(line);
    if (header) {
      if (header[1] === "to-move" && /^[12]$/.test(header[2])) toMove = Number(header[2]);
      else if (header[1] === "score" && /^\d+\s+\d+$/.test(header[2])) scores = header[2].split(/\s+/).map(Number);
      else throw new Error(`line ${index + 1}: ${JSON.stringify(line)} is not to-move or score`);
      return;
    }
    const kinds = line.split(/\s+/).map(parseKind);
    if (kinds.length !== COLS || kinds.includes(null)) {
      throw new Error(`line ${index + 1}: expected ${COLS} tiles or .., got ${JSON.stringify(line)}`);
    }
    rows.push(kinds);
  });
  if (toMove === null || scores === null || rows.length !== ROWS) {
    throw new Error(`a position needs to-move, score and ${ROWS} grid rows`);
  }
  const cells = new Array(CELL_COUNT);
  for (let row = 0; row < ROWS; row++) {
    for (let col = 0; col < COLS; col++) cells[cellIndex(col, row)] = rows[row][col];
  }
  return { cells, toMove, scores };
}

/** The top and bottom row of a column's tiles; top > bottom when it is empty.
 * @param {Position} position @param {number} col */
export function columnRun(position, col) {
  let top = 0;
  while (top < ROWS && position.cells[cellIndex(col, top)] === EMPTY) top++;
  let bottom = ROWS - 1;
  while (bottom >= top && position.cells[cellIndex(col, bottom)] === EMPTY) bottom--;
  return [top, bottom];
}

/** Every free cell (the top-most or bottom-most tile of its column), in board order. @param {Position} position */
export function freeCells(position) {
  const free = [];
  for (let col = 0; col < COLS; col++) {
    const [top, bottom] = columnRun(position, col);
    if (top > bottom) continue;
    free.push(cellIndex(col, top));
    if (bottom !== top) free.push(cellIndex(col, bottom));
  }
  return free;
}

/** Every pair of identical free tiles, in board order; three or four free copies give every choice of two.
 * @param {Position} position */
export function legalMoves(position) {
  const free = freeCells(position);
  const moves = [];
  for (let i = 0; i < free.length; i++) {
    for (let j = i + 1; j < free.length; j++) {
      if (position.cells[free[i]] === position.cells[free[j]]) moves.push([free[i], free[j]]);
    }
  }
  moves.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return moves;
}

/** Free cells whose kind has another free copy: the tiles that can be taken now. @param {Position} position */
export function playableCells(position) {
  const cells = new Set();
  for (const [a, b] of legalMoves(position)) {
    cells.add(a);
    cells.add(b);
  }
  return cells;
}

/** @param {Position} position */
export function isOver(position) {
  return legalMoves(position).length === 0;
}

/** Points the tiles left are worth if all of them are paired off. @param {Position} position */
export function pointsOnBoard(position) {
  let sum = 0;
  for (const kind of position.cells) if (kind !== EMPTY) sum += kindValue(kind);
  return sum / 2;
}

/** Why a move is not allowed here, in the rules model's words; null when it is legal.
 * @param {Position} position @param {number[]} move */
export function illegalReason(position, move) {
  const [a, b] = move;
  if (a === b) return "the two cells must differ";
  for (const cell of move) if (position.cells[cell] === EMPTY) return `${cellName(cell)} is empty`;
  const free = new Set(freeCells(position));
  for (const cell of move) {
    if (!free.has(cell)) return `${cellName(cell)} is not free (only the top-most and bottom-most tile of a column are)`;
  }
  if (position.cells[a] !== position.cells[b]) {
    return `${cellName(a)} is ${kindName(position.cells[a])} and ${cellName(b)} is ${kindName(position.cells[b])}, not a pair`;
  }
  return null;
}

/** The position after `move` (a new object) and the points it scored; throws on an illegal move.
 * @param {Position} position @param {number[]} move */
export function play(position, move) {
  const reason = illegalReason(position, move);
  if (reason !== null) throw new Error(`${moveName(move)}: ${reason}`);
  const cells = position.cells.slice();
  const points = kindValue(cells[move[0]]);
  cells[move[0]] = EMPTY;
  cells[move[1]] = EMPTY;
  const scores = position.scores.slice();
  scores[position.toMove - 1] += points;
  return { position: { cells, toMove: 3 - position.toMove, scores }, points };
}

/** The position after the moves (notation strings) from the start text. @param {string} startText @param {string[]} moves */
export function replay(startText, moves) {
  let position = parsePosition(startText);
  for (const text of moves) {
    const move = parseMove(text);
    if (move === null) throw new Error(`${JSON.stringify(text)} is not a move`);
    position = play(position, move).position;
  }
  return position;
}

/**
 * What `move` opens for the next player (battle/rules/opens.py's what_opens): the cells it frees
 * and their kinds, the opponent's pairs that use a freed tile (every pair the move makes
 * available), and how many pairs the opponent has after it (0: the game ends).
 * @param {Position} position @param {number[]} move
 */
export function whatOpens(position, move) {
  const before = new Set(freeCells(position));
  const kind = position.cells[move[0]];
  const after = play(position, move).position;
  const freed = freeCells(after).filter((cell) => !before.has(cell));
  const fresh = new Set(freed);
  const replies = legalMoves(after);
  return {
    move: [Math.min(...move), Math.max(...move)], kind, freed,
    freedKinds: freed.map((cell) => after.cells[cell]),
    newPairs: replies.filter(([a, b]) => fresh.has(a) || fresh.has(b)),
    opponentMoves: replies.length,
    after,
  };
}

/** The `.mbp` text of a position (parsePosition reads it back). @param {Position} position */
export function formatPosition(position) {
  const lines = [`to-move: ${position.toMove}`, `score: ${position.scores[0]} ${position.scores[1]}`];
  for (let row = 0; row < ROWS; row++) {
    const kinds = [];
    for (let col = 0; col < COLS; col++) kinds.push(kindName(position.cells[cellIndex(col, row)]));
    lines.push(kinds.join(" "));
  }
  return lines.join("\n") + "\n";
}
