// The page's application state: what the server last sent, what the player looks at, and the
// analysis that arrived for it; and the board (chessground) the page draws on.

import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';

import type { Color, Evaluation, Hint, Info, Score, ServerInfo, State } from './api';
import { emptyMctsView } from './mcts';
import type { MctsView } from './mcts';
import type { MoveNode, MoveTree } from './tree';

interface App {
  info: ServerInfo | null;
  id: string;
  state: State | null;
  viewPly: number;
  orientation: Color;
  hint: Hint | null;
  lines: Map<number, Info>;
  linesFen: string;
  /** The MCTS analysis of the shown position (table and lines), for the faces "mcts" and "both". */
  mcts: MctsView;
  engineInfo: Info | null;
  liveEvals: Map<number, Score>;
  evalOn: boolean;
  evaluation: Evaluation | null;
  events: EventSource | null;
  stateTime: number;
  promotion: { orig: Key; dest: Key } | null;
  busy: boolean;
  /** The move tree (variations, comments, NAGs) around the server's line; shown in analysis mode. */
  tree: MoveTree | null;
  /** The server's line as nodes of `tree` (one per move). */
  path: MoveNode[];
}

export const app: App = {
  info: null,
  id: '',
  state: null,
  viewPly: 0,
  orientation: 'white',
  hint: null,
  lines: new Map(),
  linesFen: '',
  mcts: emptyMctsView(),
  engineInfo: null,
  liveEvals: new Map(),
  evalOn: false,
  evaluation: null,
  events: null,
  stateTime: 0,
  promotion: null,
  busy: false,
  tree: null,
  path: [],
};

/** The board (chessground), created once by start() in main.ts. */
export let cg: Api;

export function setBoard(board: Api): void {
  cg = board;
}
