// The server's JSON API (docs/gui.md, "API"): types and a small fetch wrapper.

export type Color = 'white' | 'black';

/** A tablebase result, White's view: "win" means White wins (a cursed win only beyond the 50-move rule). */
export type TbResult = 'win' | 'cursed win' | 'draw' | 'blessed loss' | 'loss';

/**
 * A score from White's point of view: centipawns or moves to mate (+: White mates; 0: the side to
 * move is mated, `mated` says which side when the server knows it). `tb`: the Syzygy tables'
 * verdict when they cover the position (`dtz`: plies to the zeroing move with best play), or, for
 * a search that reached the tables later, only its result.
 */
export interface Score {
  cp?: number;
  mate?: number;
  mated?: Color;
  tb?: { result: TbResult; dtz?: number };
}

export interface Clock {
  initialMs: number;
  incMs: number;
  white: number;
  black: number;
  running: Color | null;
}

export interface ReviewMove {
  ply: number;
  cpLoss: number;
  judgement: '' | 'inaccuracy' | 'mistake' | 'blunder';
  best: string;
}

export interface ReviewSide {
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  acpl: number;
}

export interface Review {
  running: boolean;
  done: number;
  total: number;
  finished: boolean;
  moves: ReviewMove[];
  summary: { white: ReviewSide; black: ReviewSide };
  thresholds: { inaccuracy: number; mistake: number; blunder: number };
}

export interface EvalPoint {
  ply: number;
  cp: number;
  mate?: number;
  depth: number;
}

export interface Opening {
  ply: number;
  eco: string;
  name: string;
}

export interface State {
  id: string;
  version: number;
  mode: 'play' | 'analysis';
  face: string;
  startFen: string;
  fen: string;
  turn: Color;
  ply: number;
  moves: { uci: string; san: string }[];
  fens: string[];
  /** Named openings along the game (Lichess's tables), by ply; `opening` is the deepest one. */
  openings: Opening[];
  opening: Opening | null;
  check: boolean;
  lastMove: string | null;
  over: boolean;
  result: string;
  termination: string;
  message: string;
  human: Color;
  level: number;
  moveTimeMs: number;
  elo: number | null;
  /** MCTS playouts per move (a game against the MCTS face by playouts), else null. */
  playouts: number | null;
  clock: Clock | null;
  thinking: boolean;
  searching: boolean;
  analysis: { on: boolean; running: boolean; multiPv: number; ply: number | null; face: AnalysisFace };
  evals: EvalPoint[];
  review: Review | null;
  pgn: string;
  gameFile: string;
  lastError: string;
}

/** What analysis runs: alpha-beta, MCTS, or both side by side. */
export type AnalysisFace = 'alphabeta' | 'mcts' | 'both';

/** The MCTS search's root moves (on the first line of an MCTS info event). */
export interface MctsTable {
  /** The most visited root moves, best first; share: of all the root's visits; q: mean value in
   *  [-1, 1] for the side to move (null while unvisited); prior: the network's policy, 0..1. */
  /** q: the playouts' mean; searchQ: the value the search chose with (q blended with the
   * alpha-beta hints' values), null when unvisited and unhinted. */
  rows: { uci: string; san: string; visits: number; share: number; prior: number; q: number | null; searchQ: number | null }[];
  totalVisits: number;
  /** The other root moves, summed up. */
  others: { moves: number; visits: number; share: number };
}

export interface Info {
  kind: 'analysis' | 'engine';
  face: 'alphabeta' | 'mcts';
  ply: number;
  fen: string;
  depth: number;
  seldepth: number;
  multipv: number;
  score: Score;
  bound: 'exact' | 'lower' | 'upper';
  nodes: number;
  /** MCTS, on a report's first line: the playouts among `nodes` (the rest are alpha-beta hint nodes). */
  playouts?: number;
  nps: number;
  hashfull: number;
  timeMs: number;
  pv: string[];
  san: string[];
  moves?: MctsTable;
}

export interface Hint {
  uci: string;
  san: string;
  score: Score;
  depth: number;
  ply: number;
}

export interface Tapered {
  mg: number;
  eg: number;
  cp: number;
}

export interface Evaluation {
  ply: number;
  fen: string;
  score: Score | null;
  depth: number;
  static: {
    terms: { term: string; white: Tapered; black: Tapered; total: Tapered }[];
    phase: number;
    phaseMax: number;
    scale: number;
    scaleNormal: number;
    whiteCp: number;
    sideToMoveCp: number;
    /** The built-in NNUE network's static evaluation; null when the binary embeds none. */
    nnue: { whiteCp: number; network: string; loneKing: boolean } | null;
  };
}

export interface ServerInfo {
  name: string;
  version: string;
  faces: { id: string; name: string; available: boolean }[];
  levels: { level: number; depth: number; moveTimeMs: number }[];
  elo: { min: number; max: number; default: number } | null;
  /** The server's defaults (src/server/session.h): the one source of the default strength. */
  defaults: {
    strength: 'elo' | 'level';
    elo: number | null;
    level: number;
    moveTimeMs: number;
    multiPv: number;
    mctsPlayouts: number;
    analysisFace: AnalysisFace;
  };
  mcts: { backend: string; playouts: { min: number; max: number; default: number }; tableRows: number; treeMiB: number };
  /** The most plies a game may hold (longer PGNs are refused). */
  maxPlies: number;
  /** The most bytes of PGN text a load may carry. */
  maxPgnBytes: number;
  tablebases: Tablebases;
  memory: MemoryBudget;
  maxMultiPv: number;
  review: { inaccuracy: number; mistake: number; blunder: number; clampCp: number };
  dataDir: string;
}

/** The Syzygy tables the server's engines use (GET/POST /api/tablebases), and whether Fathom loads. */
export interface Tablebases {
  syzygy: { path: string; wdl: number; dtz: number; maxPieces: number; problems: string[]; summary: string };
  fathom: { available: boolean; error: string | null };
}

/** The server's one memory budget for every session's engines (docs/gui.md "Memory budget"). */
export interface MemoryBudget {
  budgetMiB: number;
  usedMiB: number;
  freeMiB: number;
  sessions: number;
  mctsTrees: number;
  secondEngines: number;
  treeMiB: number;
  sessionMiB: number;
}

/** An error answer of the server: HTTP status, message and (for 500) the bug report's URL. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly report?: string,
  ) {
    super(message);
  }
}

/** Calls the API. POST bodies are JSON; every POST carries the X-Janus header the server asks for. */
export async function api<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: { 'X-Janus': '1' } };
  if (method !== 'GET') {
    init.body = JSON.stringify(body ?? {});
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'the Janus server does not answer (is `janus gui` still running?)');
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const j = (json ?? {}) as { error?: string; report?: string };
    throw new ApiError(res.status, j.error ?? `HTTP ${res.status}`, j.report);
  }
  return json as T;
}
