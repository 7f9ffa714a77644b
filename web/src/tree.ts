// The move tree of analysis mode: variations, comments and NAGs of a loaded PGN, and variations the
// player starts by moving from an earlier position. The server holds one line (the game it
// analyses); the page keeps the tree and tells the server which line to hold. PGN text is read and
// written with chessops's pgn module.

import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { ChildNode, makePgn, Node, parsePgn, startingPosition } from 'chessops/pgn';
import type { Game, PgnNodeData } from 'chessops/pgn';
import { makeSan, parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';

export interface MoveNode {
  id: number;
  san: string;
  uci: string;
  startingComments: string[];
  comments: string[];
  nags: number[];
  children: MoveNode[];  ///< children[0] continues the line; the others are variations
  parent: MoveNode | null;
}

export interface MoveTree {
  startFen: string;
  headers: Map<string, string>;
  root: MoveNode;  ///< the start position (no move); its comments are the game's first comments
  nodes: Map<number, MoveNode>;
}

let nextId = 1;

function newNode(parent: MoveNode | null, san: string, uci: string): MoveNode {
  return { id: nextId++, san, uci, startingComments: [], comments: [], nags: [], children: [], parent };
}

function emptyTree(startFen: string, headers = new Map<string, string>()): MoveTree {
  const root = newNode(null, '', '');
  return { startFen, headers, root, nodes: new Map([[root.id, root]]) };
}

function chessFrom(fen: string): Chess | null {
  const setup = parseFen(fen);
  if (setup.isErr) return null;
  const pos = Chess.fromSetup(setup.value);
  return pos.isErr ? null : pos.value;
}

/** Every game of a PGN text (chessops's parser: variations, comments and NAGs kept). */
export function pgnGames(text: string): Game<PgnNodeData>[] {
  return parsePgn(text);
}

/** "2. White – Black, Event, Date, 1-0 (34 moves)" for the game picker: game `index` (0-based). */
export function gameSummary(headers: Map<string, string>, plies: number, index: number): string {
  const h = (k: string) => headers.get(k);
  const players = `${h('White') ?? '?'} – ${h('Black') ?? '?'}`;
  const extra = [h('Event'), h('Date')].filter((v) => v && v !== '?' && v !== '????.??.??').join(', ');
  return `${index + 1}. ${players}${extra ? `, ${extra}` : ''}, ${h('Result') ?? '*'} (${Math.ceil(plies / 2)} moves)`;
}

/**
 * The tree of a parsed game: each SAN is replayed from the game's start position. A move of the
 * main line that is not legal makes the whole game an error (the message names the move and its
 * number: "PGN: move 3... Qxh8 is not legal"); a move of a variation that is not legal ends that
 * variation there (counted in `skipped`).
 */
export function treeFromGame(game: Game<PgnNodeData>): { tree: MoveTree; skipped: number } | string {
  const start = startingPosition(game.headers);
  if (start.isErr) return `PGN: bad start position (${start.error.message})`;
  const startFen = makeFen(start.value.toSetup());
  const tree = emptyTree(startFen, new Map(game.headers));
  tree.root.comments = [...(game.comments ?? [])];
  let skipped = 0;
  let error = '';
  const add = (from: Node<PgnNodeData>, into: MoveNode, fen: string, mainLine: boolean) => {
    from.children.forEach((child, i) => {
      if (error) return;
      const pos = chessFrom(fen)!;
      const move = parseSan(pos, child.data.san);
      if (!move) {
        if (mainLine && i === 0) {
          const number = `${pos.fullmoves}${pos.turn === 'white' ? '.' : '...'}`;
          const after = into.parent ? ` after ${into.san}` : ' in the start position';
          error = `PGN: move ${number} ${child.data.san} is not legal${after} (main line); nothing was loaded`;
        }
        ++skipped;
        return;
      }
      const node = newNode(into, makeSan(pos, move), makeUci(move));
      node.startingComments = [...(child.data.startingComments ?? [])];
      node.comments = [...(child.data.comments ?? [])];
      node.nags = [...(child.data.nags ?? [])];
      into.children.push(node);
      tree.nodes.set(node.id, node);
      pos.play(move);
      add(child, node, makeFen(pos.toSetup()), mainLine && i === 0);
    });
  };
  add(game.moves, tree.root, startFen, true);
  return error || { tree, skipped };
}

/** A tree holding one line: the game the server has. */
export function linearTree(startFen: string, moves: { uci: string; san: string }[]): MoveTree {
  const tree = emptyTree(startFen);
  syncLine(tree, moves);
  return tree;
}

/**
 * The nodes of the server's line (one per move) in `tree`, adding the moves the tree lacks: a move
 * played from an earlier position becomes a variation there, the old continuation stays.
 */
export function syncLine(tree: MoveTree, moves: { uci: string; san: string }[]): MoveNode[] {
  const path: MoveNode[] = [];
  let at = tree.root;
  for (const m of moves) {
    let next = at.children.find((c) => c.uci === m.uci);
    if (!next) {
      next = newNode(at, m.san, m.uci);
      at.children.push(next);
      tree.nodes.set(next.id, next);
    }
    path.push(next);
    at = next;
  }
  return path;
}

/** Root to `node` (the moves of its line). */
export function lineOf(node: MoveNode): MoveNode[] {
  const line: MoveNode[] = [];
  for (let n: MoveNode | null = node; n && n.parent; n = n.parent) line.unshift(n);
  return line;
}

/** Whether the tree has more than one line, or comments or NAGs (else a plain move list does). */
export function hasExtras(tree: MoveTree): boolean {
  for (const n of tree.nodes.values())
    if (n.children.length > 1 || n.comments.length || n.startingComments.length || n.nags.length) return true;
  return false;
}

function toChessops(tree: MoveTree, upTo?: MoveNode): Game<PgnNodeData> {
  const only = upTo ? new Set(lineOf(upTo)) : null;
  const convert = (from: MoveNode, into: Node<PgnNodeData>) => {
    for (const c of from.children) {
      if (only && !only.has(c)) continue;
      const child = new ChildNode<PgnNodeData>({
        san: c.san,
        ...(c.startingComments.length ? { startingComments: [...c.startingComments] } : {}),
        ...(c.comments.length ? { comments: [...c.comments] } : {}),
        ...(c.nags.length ? { nags: [...c.nags] } : {}),
      });
      into.children.push(child);
      convert(c, child);
    }
  };
  const moves = new Node<PgnNodeData>();
  convert(tree.root, moves);
  const headers = new Map(tree.headers);
  const standard = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  if (tree.startFen !== standard) {
    headers.set('SetUp', '1');
    headers.set('FEN', tree.startFen);
  }
  if (!headers.has('Result')) headers.set('Result', '*');
  return { headers, comments: only ? [] : [...tree.root.comments], moves };
}

/** The whole tree as PGN (variations, comments, NAGs). */
export function treePgn(tree: MoveTree): string {
  return makePgn(toChessops(tree));
}

/** One line of the tree, root to `node`, as PGN without variations (what the server loads). */
export function linePgn(tree: MoveTree, node: MoveNode): string {
  const game = toChessops(tree, node);
  game.headers.set('Result', '*');
  return makePgn(game);
}

const kNagGlyphs: Record<number, string> = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!', 7: '□', 10: '=', 13: '∞', 14: '⩲', 15: '⩱', 16: '±', 17: '∓', 18: '+−', 19: '−+' };

/** "!", "?!", "±" ... for a NAG, "$n" for the others. */
export function nagGlyph(nag: number): string {
  return kNagGlyphs[nag] ?? `$${nag}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The tree as inline HTML in the style of a PGN viewer: the main line, each variation in
 * parentheses after the move it replaces, comments and NAG glyphs. A move of the server's line
 * (`path`) carries data-ply (click: show that position); every move carries data-node (click on
 * another line: switch to it). `marks` adds review marks to the path's moves by ply.
 */
export function renderTree(tree: MoveTree, path: MoveNode[], viewPly: number, marks: Map<number, { cls: string; glyph: string; title: string }>): string {
  const onPath = new Map(path.map((n, i) => [n.id, i + 1]));
  const startBlack = tree.startFen.split(' ')[1] === 'b';
  const startNumber = Number(tree.startFen.split(' ')[5] ?? '1') || 1;
  const out: string[] = [];
  const comment = (texts: string[]) => {
    for (const t of texts) if (t.trim()) out.push(`<span class="comment">${escapeHtml(t.trim())}</span>`);
  };
  comment(tree.root.comments);
  // `depth`: plies from the start to the move; `forceNumber`: write "n…" before a Black move
  // (at the start of a line, after a comment or a variation).
  const move = (n: MoveNode, depth: number, forceNumber: boolean) => {
    comment(n.startingComments);
    const white = (depth % 2 === 0) !== startBlack;
    const number = startNumber + Math.floor((depth + (startBlack ? 1 : 0)) / 2);
    if (white) out.push(`<span class="num">${number}.</span>`);
    else if (forceNumber) out.push(`<span class="num">${number}…</span>`);
    const ply = onPath.get(n.id);
    const mark = ply ? marks.get(ply) : undefined;
    const cls = ['move', ply !== undefined && ply === viewPly ? 'current' : '', ply ? '' : 'off-line', mark?.cls ?? ''].join(' ');
    const attrs = `data-node="${n.id}"${ply ? ` data-ply="${ply}"` : ''}${mark?.title ? ` title="${escapeHtml(mark.title)}"` : ''}`;
    const nags = n.nags.map(nagGlyph).join('');
    out.push(`<span class="${cls}" ${attrs}>${escapeHtml(n.san)}${mark?.glyph ?? ''}${nags ? `<span class="nag">${escapeHtml(nags)}</span>` : ''}</span>`);
    comment(n.comments);
  };
  // After `at` (a move at `depth`, or the root at -1): the line's next moves, each followed by the
  // variations that replace it, in parentheses.
  const continuation = (at: MoveNode, depth: number, forceFirst: boolean) => {
    let force = forceFirst;
    for (let cur = at, d = depth; cur.children[0]; cur = cur.children[0], ++d) {
      const next = cur.children[0];
      move(next, d + 1, force);
      force = next.comments.length > 0;
      for (const v of cur.children.slice(1)) {
        out.push('<span class="variation">(');
        move(v, d + 1, true);
        continuation(v, d + 1, v.comments.length > 0);
        out.push(')</span>');
        force = true;
      }
    }
  };
  continuation(tree.root, -1, true);
  return out.join(' ').replaceAll('">( ', '">(').replaceAll(' )</span>', ')</span>');
}
