// @ts-check
// The page's side of the protocol (docs/protocol.md), cut as lichess cuts its round socket:
// every message the page sends is built here (the openings below, GameSocket's and
// SolverSocket's methods), and every message the server sends is read by its type here: the
// socket's `folds` fold it into the game's latest `state` and the seat this browser holds, then
// the screen's handlers (`Handlers`) show it. It decides nothing about the game (the server does).
//
// `hello`, then the opening (`create`, `join`, `watch`, `solver_game`, or `resume` with the seat
// token once there is one), on every open of the line (connection.js). Every move without an
// `ack` is sent again with its id when the line is back: the server applies an id once, so a
// move is never lost and never played twice.

import { Line } from "./connection.js";
import { keepSeat } from "./seats.js";
import { nameOf } from "./game_view.js";
import { deviceKey } from "./device.js";
/** @import { Seat } from "./seats.js" */

// -- what the server sends (docs/protocol.md, "Server messages"), as far as the page reads it --

/** A message, either way: its `type` says what else it holds.
 * @typedef {{type: string, [field: string]: any}} Message */
/** A screen's handler of a message, once its socket has folded it in; true: it left the screen (no `after`).
 * @template S @typedef {(socket: S, message: Message) => true | void} Handler */
/** A screen's handlers by message type, `line` for every change of the line; a type without one is
 * not told. A socket its screen closed tells it nothing after the closing change of the line.
 * @template S @typedef {Record<string, Handler<S>>} Handlers */
/** @typedef {{seat: number, name: string | null, presence: string}} Player */
/** @typedef {{winner: number | null, reason: string, scores: number[]}} Result */
/** A game as `state` says it, with every `moved` since folded in (`afterMove`).
 * @typedef {{type: string, game: string, you: number | "spectator", status: string, start: string, moves: string[],
 *   to_move: number | null, scores: number[], players: Player[], result: Result | null, move_seconds: number | null,
 *   deadline: number | null, seconds_left: number | null, offers: {rematch: number | null, takeback: number | null},
 *   rematch: object | null, invite: string | null, invite_secret: string | null, watch: string}} State */
/** A search's answer (`hint_result`, `analysis_result`).
 * @typedef {{value: number, exact: boolean, depth: number, best_moves: string[], pv: string[], final_score: number[],
 *   moves: {move: string, value: number, bound: string, points: number}[]}} Evaluation */

const PROTOCOL_VERSION = 1;
/** What every line sends when it has heard nothing for a while (connection.js): the server's `pong` says it is there. */
const pingMessage = () => ({ type: "ping", t: Date.now() / 1000 });

/** The screen's handler of `message`, then its `after` (run for any type).
 * @param {{handlers: Handlers<any>, after: () => void}} socket @param {Message} message */
function tell(socket, message) {
  if (socket.handlers[message.type]?.(socket, message) !== true) socket.after();
}

/** The line of a screen that listens without playing a game: each message is folded in (`fold`), then
 * told to the screen, as is each change of the line (`line`); it says `greeting()` on every open, and
 * resends nothing when it comes back (a screen's line, not a game's). */
class ListeningSocket {
  /** @param {{handlers: Handlers<any>, after?: () => void, url?: string}} options */
  constructor({ handlers, after = () => {}, url }) {
    this.handlers = handlers;
    this.after = after;
    this.line = new Line({
      url,
      greeting: () => this.greeting(),
      ping: pingMessage,
      onMessage: (message) => this.receive(message),
      onChange: () => tell(this, { type: "line" }),
      onBack: () => {},
    });
  }

  /** @returns {Message[]} */
  greeting() { return [{ type: "hello", version: PROTOCOL_VERSION }]; }
  start() { this.line.start(); }
  /** @param {string} detail */
  close(detail) {
    this.line.close(detail);
    this.handlers = {};
    this.after = () => {};
  }

  /** What the socket itself keeps of `message`, before its screen reads it. @param {Message} message */
  fold(message) {}

  /** @param {Message} message */
  receive(message) {
    this.fold(message);
    tell(this, message);
  }
}

const FATAL_CODES = new Set(["version", "bad_token", "not_found", "full", "expired", "damaged"]);
const OPENINGS = new Set(["hello", "create", "join", "resume", "watch", "solver_game", "challenge"]);
const FORGOTTEN_MOVE_CODES = new Set(["illegal_move", "not_your_turn", "game_over", "out_of_time", "id_reused",
  "not_a_player"]);

function newMoveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return "w" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The state after a `moved` message, or the same state when the move is out of order.
 * @param {State | null} state @param {Message} moved */
export function afterMove(state, moved) {
  if (!state || !Array.isArray(state.moves) || moved.ply !== state.moves.length + 1) return state;
  return {
    ...state,
    moves: [...state.moves, moved.move],
    ply: state.moves.length + 1,
    offers: { ...(state.offers || {}), takeback: null },
    scores: moved.scores,
    to_move: moved.to_move,
    status: moved.status,
    result: moved.result,
    deadline: moved.deadline,
    seconds_left: null,
  };
}

/** A friend's game as a screen asks for it.
 * @typedef {{deal: object, first: string, moveSeconds?: number | null, name?: string}} Terms */

/** The first game message of a GameSocket, as the screens ask for a game. */
export const openings = {
  /** Host a friend's game: `deal` as the protocol has it, `first` creator/joiner/random. @param {Terms} terms */
  create({ deal, first, moveSeconds = null, name = "" }) {
    /** @type {Message} */
    const opening = { type: "create", deal, first };
    if (moveSeconds) opening.move_seconds = moveSeconds;
    if (name) opening.name = name;
    return opening;
  },
  /** Take the open seat of the game of invite code `code`. @param {string} code */
  join(code, name = "") {
    return name ? { type: "join", code, name } : { type: "join", code };
  },
  /** Follow the game of watch code `code`. @param {string} code */
  watch(code) {
    return { type: "watch", code };
  },
  /** A friend's game (`create`'s fields) listed in the lobby for anyone to take.
   * @param {Terms} options @returns {Message} */
  challenge(options) {
    return { ...openings.create(options), type: "challenge" };
  },
  /** A game against the solver at `level`.
   * @param {{level: string, deal: object, first: string, name?: string}} options */
  solverGame({ level, deal, first, name = "" }) {
    /** @type {Message} */
    const opening = { type: "solver_game", level, deal, first };
    if (name) opening.name = name;
    return opening;
  },
};

export class GameSocket {
  /**
   * @param {object} options
   * @param {Message | null} [options.opening] the first game message (`create`, `join`, `watch`); with `seat`
   *   the socket resumes it
   * @param {Seat | null} [options.seat]
   * @param {string} [options.name]
   * @param {Handlers<GameSocket>} [options.handlers]
   * @param {() => void} [options.after]
   * @param {string} [options.url]
   */
  constructor({ opening = null, seat = null, name = "", handlers = {}, after = () => {}, url }) {
    this.opening = opening;
    this.seat = seat; // {token, game, seat, invite, watch, pending: [[id, move]...]}
    this.name = name;
    this.handlers = handlers;
    this.after = after;
    /** @type {State | null} */
    this.state = null;
    /** @type {string | null} */
    this.shareUrl = null; // welcome's address for friends' links, when the server knows a better one
    /** @type {{seat: number, level: string, par: number | null} | null} */
    this.solver = null; // a game against the solver: {seat, level, par}
    /** @type {number | null} */
    this.thinking = null; // where the solver's move stands: 0 thinks, 1, 2... its place in the queue
    /** @type {number | null} */
    this.thinkingUntil = null; // when its address's solver time pays for it (ms), while it waits for it
    /** @type {number | null} */
    this.thinkingAhead = null; // roughly the seconds of solver work ahead of it, while it waits in the queue
    /** @type {Message | null} */
    this.hint = null; // the latest hint_result of this game
    this.hintAsked = false;
    /** @type {Message | null} */
    this.refusal = null; // the latest solver_refused
    /** @type {Message | null} */
    this.par = null; // the latest par_result of this game
    /** @type {string | null} */
    this.parAsked = null; // the game whose par this connection asked for
    this.line = new Line({
      url,
      greeting: () => [this.hello(), this.openingMessage()],
      ping: pingMessage,
      onMessage: (message) => this.receive(message),
      onChange: () => tell(this, { type: "line" }),
      onBack: () => this.resendPending(),
    });
  }

  get pending() {
    return this.seat?.pending || [];
  }

  start() {
    this.line.start();
  }

  /** @param {string} detail */
  close(detail) {
    this.line.close(detail);
    this.handlers = {};
    this.after = () => {};
  }

  // -- what the page sends ----------------------------------------------------------------

  hello() {
    /** @type {Message} */
    const hello = { type: "hello", version: PROTOCOL_VERSION };
    if (this.name) hello.name = this.name;
    return hello;
  }

  openingMessage() {
    if (this.seat?.token) return { type: "resume", token: this.seat.token };
    return this.opening;
  }

  /** A move (notation); it stays pending, and is sent again, until the server acknowledges it. @param {string} move */
  play(move) {
    const id = newMoveId();
    /** @type {Seat} */ (this.seat).pending = [...this.pending, [id, move]];
    this.remember();
    this.line.send({ type: "move", move, id });
    return id;
  }

  /** Every move without an `ack`, again with its id: the server plays an id once at most. */
  resendPending() {
    for (const [id, move] of this.pending) this.line.send({ type: "move", move, id });
  }

  // The rest go now or not at all (false: the line is down, and the screen says so).
  resign() { return this.line.send({ type: "resign" }); }
  abort() { return this.line.send({ type: "abort" }); }
  requestTakeback() { return this.line.send({ type: "takeback_request" }); }
  /** @param {boolean} accept */
  answerTakeback(accept) { return this.line.send({ type: "takeback_answer", accept }); }
  offerRematch() { return this.line.send({ type: "rematch_offer" }); }
  askRecord() { return this.line.send({ type: "record" }); }
  askReview() { return this.line.send({ type: "review" }); }
  askHint() {
    this.hintAsked = this.line.send({ type: "hint" });
    return this.hintAsked;
  }
  /** @param {boolean} accept */
  answerRematch(accept) { return this.line.send({ type: accept ? "rematch_accept" : "rematch_decline" }); }
  /** Name this browser's seat, taken without a name (the server names a seat once). @param {string} name */
  nameSeat(name) { return this.line.send({ type: "name", name }); }

  // -- what the server sends --------------------------------------------------------------

  /** @param {Message} message */
  receive(message) {
    const fold = folds[message.type];
    const fatal = fold ? fold(this, message) : false;
    tell(this, message);
    if (fatal) this.line.close(message.reason || "refused");
  }

  remember() {
    if (this.seat?.token) keepSeat(this.seat);
  }
}

/**
 * What each server message does to a GameSocket; true when it refuses the opening for good. A type
 * the page does not know is left alone (the server may add messages within a version).
 * @type {Record<string, (socket: GameSocket, message: Message) => boolean>}
 */
const folds = {
  welcome(socket, message) {
    const url = message.share_url;
    socket.shareUrl = typeof url === "string" && /^https?:\/\/[^\s"<>]+$/.test(url) ? url : null;
    return false;
  },
  pong() {
    return false; // the line heard the server: that is all a pong says
  },
  elsewhere(socket, message) {
    if (typeof message.group === "string" && message.group) socket.line.follow(message.group);
    return false;
  },
  created: takeSeat,
  joined: takeSeat,
  solver_created: takeSeat,
  solver(socket, message) {
    socket.solver = { seat: message.seat, level: message.level, par: message.par };
    if (socket.seat?.token) {
      socket.seat.solver = message.level;
      socket.remember();
    }
    return false;
  },
  solver_queue(socket, message) {
    if (message.what === "move") {
      socket.thinking = message.place;
      socket.thinkingUntil = message.wait ? Date.now() + message.wait * 1000 : null;
      socket.thinkingAhead = message.ahead ?? null;
    }
    if (message.what === "hint" && message.place === null) socket.hintAsked = false;
    return false;
  },
  solver_refused(socket, message) {
    socket.refusal = message;
    if (message.what === "hint") socket.hintAsked = false;
    return false;
  },
  hint_result(socket, message) {
    socket.hint = message;
    socket.hintAsked = false;
    return false;
  },
  state(socket, message) {
    socket.state = /** @type {State} */ (message);
    const seat = socket.seat;
    if (seat?.token) {
      seat.game = message.game;
      seat.watch = message.watch || seat.watch;
      seat.status = message.status;
      const other = (message.players || []).find((/** @type {Player} */ p) => p.seat !== message.you && p.presence !== "open");
      // kept as the server names it (the home list words the solver's in its reader's language);
      // "Player 2" for a nameless one
      seat.opponent = other ? other.name || nameOf(/** @type {State} */ (message), other.seat) : null;
      socket.remember();
    }
    if (socket.line.state !== "connected") {
      performance.mark("state");
      socket.line.connected();
      socket.resendPending();
      // the seat's game is filed under this browser's device key (again on each connection: the
      // server keeps the first): its result counts in /stats/ and marks this browser's rows in the
      // deal of the day's table
      if (seat?.token) socket.line.send({ type: "device", device: deviceKey() });
      socket.parAsked = null; // a new connection: the server tells its par news to those who ask
    }
    if (socket.parAsked !== message.game && message.status !== "waiting") askPar(socket, message.game);
    return false;
  },
  par_result(socket, message) {
    socket.par = message;
    if (message.status === "refused") {
      // asked again once the server would take it, while the page still shows that game
      setTimeout(() => {
        if (socket.state?.game === message.game) askPar(socket, message.game);
      }, Math.max(1, message.retry_after ?? 60) * 1000);
    }
    return false;
  },
  moved(socket, message) {
    socket.state = afterMove(socket.state, message);
    if (socket.solver && message.seat === socket.solver.seat) socket.thinking = socket.thinkingUntil = null;
    socket.refusal = null;
    if (socket.seat?.token) {
      socket.seat.status = message.status;
      socket.remember();
    }
    return false;
  },
  ack(socket, message) {
    if (socket.seat) {
      socket.seat.pending = socket.pending.filter(([id]) => id !== message.id);
      socket.remember();
    }
    return false;
  },
  rematch(socket, message) {
    if (socket.seat?.token) {
      socket.seat.game = message.game;
      socket.seat.seat = message.you;
      socket.seat.watch = message.watch;
      socket.remember();
    }
    return false;
  },
  error(socket, message) {
    const ref = message.ref || {};
    if (FORGOTTEN_MOVE_CODES.has(message.code) && socket.seat) {
      socket.seat.pending = socket.pending.filter(([id]) => id !== ref.id);
      socket.remember();
    }
    return FATAL_CODES.has(message.code) && OPENINGS.has(ref.type);
  },
};

/** Ask for the par of `game`'s deal: the server answers with its news (and works it out when no
 * catalogue knows it), so the game's end can show it. @param {GameSocket} socket @param {string} game */
function askPar(socket, game) {
  if (socket.line.send({ type: "par" })) socket.parAsked = game;
}

/** @param {GameSocket} socket @param {Message} message */
function takeSeat(socket, message) {
  socket.seat = {
    token: message.token, game: message.game, seat: message.seat, pending: [],
    invite: socket.opening?.type === "join" ? socket.opening.code : message.invite || null,
    watch: message.watch || null, hosted: message.type === "created",
    solver: message.type === "solver_created" ? /** @type {Message} */ (socket.opening).level : null,
    // offered in the lobby: the invite card says anyone may take it (kept with the seat for a reload)
    offered: message.type === "created" && socket.opening?.type === "challenge",
  };
  socket.remember();
  return false;
}

/**
 * The line of a screen that asks the server without playing a game: the analysis board, a
 * review's page, the deal of the day's table and this browser's statistics. On every open it says
 * `hello` and then the request the screen stands on (the position it analyses, the review it shows:
 * the last `analyse`, `getReview`, `daily` or `myStats`), so a line that dropped asks again; the
 * screen reads the answers (`analysis_result`, `review_result`, `solver_queue`, `solver_refused`,
 * `daily_table`, `my_stats_result`) with its handlers.
 */
export class SolverSocket extends ListeningSocket {
  /** @param {{handlers: Handlers<SolverSocket>, after?: () => void, url?: string}} options */
  constructor(options) {
    super(options);
    /** @type {Message | null} */
    this.standing = null; // the request the screen stands on, asked again on every open
  }

  greeting() { return this.standing ? [...super.greeting(), this.standing] : super.greeting(); }

  /** Analyse `position` (.mbp text); every answer carries `id`. Before `start`, the first open asks it.
   * @param {string} id @param {string} position */
  analyse(id, position) { return this.ask({ type: "analyse", id, position }); }
  /** Stop the analysis: the board shows a position it does not analyse (being edited). */
  stopAnalysis() {
    this.standing = null;
    return this.line.state !== "resting" && this.line.send({ type: "analyse_stop" });
  }
  /** Show review `review` (its news comes as it changes). @param {string} review */
  getReview(review) { return this.ask({ type: "review_get", review }); }
  /** The deal of the day, its par and the day's table, this browser's rows marked (`daily_table`). @param {string} device */
  daily(device) { return this.ask({ type: "daily", device }); }
  /** The statistics of the games filed under this browser's device key (`my_stats_result`). @param {string} device */
  myStats(device) { return this.ask({ type: "my_stats", device }); }

  /** @param {Message} message */
  ask(message) {
    this.standing = message;
    return this.line.send(message);
  }

  /** @param {Message} message */
  fold(message) {
    if (message.type === "welcome") this.line.connected();
  }
}

/**
 * The lobby's line (docs/protocol.md, "The lobby's messages"): every open follows the lobby again (the list once,
 * then what changes), an `elsewhere` is followed to the process that keeps the lobby, and the panel
 * (lobby_panel.js) handles `lobby`, `lobby_news`, `lobby_page`, `error`.
 */
export class LobbySocket extends ListeningSocket {
  greeting() { return [...super.greeting(), { type: "lobby_follow" }]; }
  get state() { return this.line.state; }
  /** The open challenges from place `start` on, past the part told to every follower. @param {number} start */
  page(start) { return this.line.send({ type: "lobby_page", start }); }

  /** @param {Message} message */
  fold(message) {
    if (message.type === "lobby") this.line.connected();
    // another of the server's processes keeps the lobby: follow it there, at its `?at=`
    if (message.type === "elsewhere" && typeof message.group === "string" && message.group) this.line.follow(message.group);
  }
}

/**
 * The puzzles' line (docs/protocol.md, "Puzzles"): the puzzle asked for is asked again on every
 * open of the line, so a line that comes back shows the same puzzle; the screen reads the answers
 * (`puzzle_shown`, `puzzle_judged`, `puzzle_refutation`, `puzzle_solution`) with its handlers.
 */
export class PuzzleSocket extends SolverSocket {
  /** Open puzzle `puzzle` (null: the next one near the device's rating, of `theme` when given).
   * @param {string} device @param {string | null} puzzle @param {string | null} theme */
  openPuzzle(device, puzzle = null, theme = null) {
    /** @type {Message} */
    const message = { type: "puzzle_open", device };
    if (puzzle) message.puzzle = puzzle;
    else if (theme) message.theme = theme;
    return this.ask(message);
  }
  /** The puzzle shown is the one a line that comes back reopens (not another near the rating).
   * @param {string} device @param {string} puzzle */
  keepPuzzle(device, puzzle) { this.standing = { type: "puzzle_open", device, puzzle }; }
  /** @param {string} move */
  tryMove(move) { return this.line.send({ type: "puzzle_move", move }); }
  reveal() { return this.line.send({ type: "puzzle_reveal" }); }
}
