// What the player does: navigate the positions, move (board, promotion picker, typed SAN), hint,
// evaluation, analysis, review, undo, flip, copy, and open dialogs.

import type { Key } from '@lichess-org/chessground/types';
import { parseSan } from 'chessops/san';
import { makeUci, parseSquare, parseUci } from 'chessops/util';

import type { Color, Evaluation, Hint, State } from './api';
import { emptyMctsView } from './mcts';
import { humanToMove, redrawBoard, render, viewedFen } from './render';
import { call, post, setState } from './session';
import { analysisOptions } from './settings';
import { app, cg } from './state';
import { lineOf, linePgn } from './tree';
import type { MoveNode } from './tree';
import { $, chessFromFen, opposite, toast } from './util';

export function goTo(ply: number): void {
  const st = app.state;
  if (!st) return;
  const p = Math.max(0, Math.min(st.ply, ply));
  if (p === app.viewPly) return;
  app.viewPly = p;
  app.evaluation = null;
  render();
  if (st.mode === 'analysis' && st.analysis.on) scheduleAnalysis();
  if (app.evalOn) void refreshEvaluation();
}

let analysisTimer = 0;
function scheduleAnalysis(): void {
  clearTimeout(analysisTimer);
  analysisTimer = window.setTimeout(() => {
    const st = app.state;
    if (!st || st.mode !== 'analysis' || !st.analysis.on) return;
    app.lines.clear();
    app.mcts = emptyMctsView();
    void post('analysis', { on: true, ...analysisOptions(), ply: app.viewPly });
  }, 120);
}

export function onBoardMove(orig: Key, dest: Key): void {
  const st = app.state;
  if (!st) return;
  const pos = chessFromFen(viewedFen());
  const from = parseSquare(orig);
  const piece = pos && from !== undefined ? pos.board.get(from) : undefined;
  if (piece?.role === 'pawn' && (dest[1] === '8' || dest[1] === '1')) {
    showPromotion(orig, dest, piece.color);
    return;
  }
  void sendMove(orig + dest);
}

/** Makes the server hold the tree's line through `node` and shows the position after it. */
export async function switchLine(node: MoveNode): Promise<void> {
  const tree = app.tree;
  if (!tree) return;
  const plies = lineOf(node).length;
  const st = await call<State>('load', { pgn: linePgn(tree, node) });
  if (!st) return;
  app.tree = tree;  // the load keeps the tree: its line is in it
  setState(st);
  goTo(plies);
}

/**
 * The UCI of a move typed as SAN ("e4", "Nf3", "exd5", "O-O", "e8=Q") or UCI ("e2e4") in the shown
 * position, or a message saying why it cannot be played.
 */
function typedMove(text: string): { uci: string } | string {
  const st = app.state;
  if (!st) return 'No game yet.';
  if (st.mode === 'play' && st.over) return 'The game is over.';
  if (st.mode === 'play' && app.viewPly !== st.ply) return 'Go to the last position to move (End).';
  if (st.mode === 'play' && !humanToMove(st)) return 'It is not your move.';
  const pos = chessFromFen(viewedFen());
  if (!pos) return 'The shown position cannot be read.';
  let move = parseSan(pos, text);
  if (!move) {
    const uci = parseUci(text);
    if (uci && pos.isLegal(uci)) move = uci;
  }
  if (!move) return `'${text}' is not a legal move here; type SAN such as e4, Nf3, exd5, O-O or e8=Q.`;
  return { uci: makeUci(move) };
}

export function setupMoveInput(): void {
  const form = $<HTMLFormElement>('san-form');
  const input = $<HTMLInputElement>('san-input');
  const error = $('san-error');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const m = typedMove(text);
    if (typeof m === 'string') {
      error.textContent = m;
      error.hidden = false;
      return;
    }
    error.hidden = true;
    input.value = '';
    void sendMove(m.uci);
  });
  input.addEventListener('input', () => (error.hidden = true));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') input.blur();  // back to the keyboard shortcuts
  });
}

async function sendMove(uci: string): Promise<void> {
  const st = app.state!;
  app.hint = null;
  const body: { uci: string; ply?: number } = { uci };
  if (st.mode === 'analysis') body.ply = app.viewPly;
  await post('move', body);
}

function showPromotion(orig: Key, dest: Key, color: Color): void {
  app.promotion = { orig, dest };
  const box = $('promotion');
  const file = dest.charCodeAt(0) - 97;
  const col = app.orientation === 'white' ? file : 7 - file;
  box.style.left = `${col * 12.5}%`;
  const fromTop = (dest[1] === '8') === (app.orientation === 'white');
  box.classList.toggle('bottom', !fromTop);
  box.innerHTML = '';
  for (const [role, key] of [['queen', 'q'], ['knight', 'n'], ['rook', 'r'], ['bishop', 'b']] as const) {
    const btn = document.createElement('button');
    btn.className = 'promo';
    btn.dataset.role = role;
    btn.title = `${role} (${key.toUpperCase()})`;
    btn.innerHTML = `<piece class="${role} ${color}"></piece>`;
    btn.onclick = () => choosePromotion(key);
    box.appendChild(btn);
  }
  box.hidden = false;
}

export function choosePromotion(key: string | null): void {
  const p = app.promotion;
  app.promotion = null;
  $('promotion').hidden = true;
  if (!p || !key) {
    redrawBoard();
    return;
  }
  void sendMove(p.orig + p.dest + key);
}

export async function hint(): Promise<void> {
  const st = app.state;
  if (!st || st.over) return;
  if (app.hint && app.hint.ply === st.ply && app.viewPly === st.ply) {
    const u = app.hint.uci;
    app.hint = null;
    await sendMove(u);  // second press: the engine's move is played for you
    return;
  }
  if (app.viewPly !== st.ply) goTo(st.ply);
  $('status').textContent = 'Looking for a hint…';
  const h = await call<Hint>('hint');
  if (h) {
    app.hint = h;
    render();
  }
}

export async function toggleEval(): Promise<void> {
  app.evalOn = !app.evalOn;
  render();
  if (app.evalOn) await refreshEvaluation();
}

export async function refreshEvaluation(): Promise<void> {
  const ply = app.viewPly;
  const ev = await call<Evaluation>('evaluate', { ply });
  if (ev && ev.ply === app.viewPly) {
    app.evaluation = ev;
    if (ev.score) app.liveEvals.set(ev.ply, ev.score);
    render();
  }
}

export async function toggleAnalysis(): Promise<void> {
  const st = app.state;
  if (!st) return;
  if (st.mode === 'analysis') {
    await post('mode', { mode: 'play', color: st.human });
  } else {
    await post('mode', { mode: 'analysis' });
    await post('analysis', { on: true, ...analysisOptions(), ply: app.viewPly });
  }
}

export async function copy(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    document.execCommand('copy');
    ta.remove();
  }
  toast(`${what} copied`);
}

export async function review(): Promise<void> {
  const depth = Number($<HTMLSelectElement>('review-depth').value) || 10;
  await post('review', { depth, moveTimeMs: 1000 });
}

export function undo(): void {
  cg.cancelPremove();
  void post('undo');
}

export function flip(): void {
  app.orientation = opposite(app.orientation);
  render();
}

/** Opens a dialog (modal) and tells it so with a "janus-open" event (the settings refresh then). */
export function openDialog(id: string): void {
  const d = $<HTMLDialogElement>(id);
  if (d.open) return;
  d.showModal();
  d.dispatchEvent(new Event('janus-open'));
}

export function anyDialogOpen(): boolean {
  return [...document.querySelectorAll('dialog')].some((d) => (d as HTMLDialogElement).open);
}
