// Janus web GUI. The server (src/server) holds the game and runs the engine; this page shows the
// board (Lichess's chessground), uses chessops only for legal-destination highlighting and SAN
// display, and talks to the server through the JSON API and its server-sent-events stream.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { Chess } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { parseFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { makeUci, parseSquare, parseUci } from 'chessops/util';

import { api, ApiError } from './api';
import type { AnalysisFace, Color, Evaluation, Hint, Info, Score, ServerInfo, State } from './api';
import { emptyMctsView, mctsArrows, mctsTableHtml, takeMctsInfo } from './mcts';
import type { MctsView } from './mcts';
import { drawGraph, winningChances } from './graph';
import type { GraphPoint } from './graph';
import { gameSummary, hasExtras, lineOf, linePgn, linearTree, pgnGames, renderTree, syncLine, treeFromGame, treePgn } from './tree';
import type { MoveNode, MoveTree } from './tree';

// ---- Small helpers ----------------------------------------------------------------------------

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

function toast(html: string, kind: 'info' | 'error' = 'info', ms = 4000): HTMLElement {
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.innerHTML = html;
  const close = document.createElement('button');
  close.textContent = '×';
  close.title = 'Close';
  close.onclick = () => el.remove();
  el.appendChild(close);
  $('toasts').appendChild(el);
  if (ms > 0) setTimeout(() => el.remove(), ms);
  return el;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** "+0.34", "-1.20", "#3", "#-2" (White's view). */
function formatScore(s: Score | null | undefined): string {
  if (!s) return '–';
  if (s.mate !== undefined) return s.mate === 0 ? '#' : `#${s.mate}`;
  const v = (s.cp ?? 0) / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

function formatClock(ms: number): string {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const rest = `${m}:${String(s % 60).padStart(2, '0')}`;
  return ms < 10000 ? `${rest}.${Math.floor((ms % 1000) / 100)}` : rest;
}

function chessFromFen(fen: string): Chess | null {
  const setup = parseFen(fen);
  if (setup.isErr) return null;
  const pos = Chess.fromSetup(setup.value);
  return pos.isErr ? null : pos.value;
}

/** SAN of a UCI principal variation from `fen` (chessops), for display. */
function pvToSan(fen: string, pv: string[]): string[] {
  const pos = chessFromFen(fen);
  const out: string[] = [];
  if (!pos) return out;
  for (const u of pv) {
    const m = parseUci(u);
    if (!m || !pos.isLegal(m)) break;
    out.push(makeSan(pos, m));
    pos.play(m);
  }
  return out;
}

function opposite(c: Color): Color {
  return c === 'white' ? 'black' : 'white';
}

// ---- Appearance -------------------------------------------------------------------------------

const kThemes = ['brown', 'blue', 'green', 'grey', 'purple'];

/** Premoves (a move entered during Janus's turn, played when the turn comes): off by default. */
function premovesOn(): boolean {
  return localStorage.getItem('janus.premoves') === 'true';
}
const kPieceSets = ['cburnett', 'glyph'];

function applyAppearance(theme: string, pieces: string): void {
  for (const t of kThemes) document.body.classList.toggle(`theme-${t}`, t === theme);
  for (const p of kPieceSets) document.body.classList.toggle(`pieces-${p}`, p === pieces);
  localStorage.setItem('janus.theme', theme);
  localStorage.setItem('janus.pieces', pieces);
  document.body.dataset.theme = theme;
  document.body.dataset.pieces = pieces;
}

/** What analyses (alpha-beta, MCTS or both): the player's last choice, the server's default until then. */
function wantedAnalysisFace(): AnalysisFace {
  const v = localStorage.getItem('janus.analysisFace');
  return v === 'alphabeta' || v === 'mcts' || v === 'both' ? v : (app.info?.defaults.analysisFace ?? 'alphabeta');
}

/** The analysis settings every analysis request carries: lines and face. */
function analysisOptions(): { multiPv: number; face: AnalysisFace } {
  return { multiPv: wantedMultiPv(), face: wantedAnalysisFace() };
}

/** Analysis lines (MultiPV) the player chose in the Lines menu; the server's default until then. */
function wantedMultiPv(): number {
  const v = Number(localStorage.getItem('janus.multipv'));
  return v >= 1 && v <= 5 ? v : (app.info?.defaults.multiPv ?? 3);
}

// ---- Sounds ------------------------------------------------------------------------------------

type SoundKind = 'move' | 'capture' | 'check';

/** Move sounds (settings, `C`): on unless switched off. */
function soundsOn(): boolean {
  return localStorage.getItem('janus.sounds') !== 'false';
}

let audio: AudioContext | null = null;

/**
 * A short synthesised sound for a move, a capture or a check (no sound files: Web Audio
 * oscillators). Each sound played is counted in data-sounds and named in data-last-sound on the
 * body (for the browser tests, which hear nothing).
 */
function playSound(kind: SoundKind): void {
  if (!soundsOn()) return;
  const b = document.body.dataset;
  b.sounds = String(Number(b.sounds ?? '0') + 1);
  b.lastSound = kind;
  try {
    audio ??= new AudioContext();
    const tones: Record<SoundKind, [number, number, OscillatorType][]> = {
      move: [[520, 0.07, 'triangle']],
      capture: [[260, 0.05, 'square'], [180, 0.09, 'triangle']],
      check: [[660, 0.09, 'sine'], [880, 0.14, 'sine']],
    };
    let t = audio.currentTime;
    for (const [freq, length, type] of tones[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.18, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + length);
      t += length * 0.8;
    }
  } catch {
    // No audio output (or the browser refuses it before a user gesture): silence.
  }
}

/** The sound of a move from its SAN: check before capture before a plain move. */
function soundOf(san: string): SoundKind {
  return /[+#]/.test(san) ? 'check' : san.includes('x') ? 'capture' : 'move';
}

// ---- Application state ------------------------------------------------------------------------

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

const app: App = {
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

let cg: Api;
let lastBoardKey = '';

// ---- Server calls ------------------------------------------------------------------------------

function sessionPath(action = ''): string {
  return `/api/sessions/${app.id}${action ? '/' + action : ''}`;
}

/** Reports an API error; server errors (500) link to the bug report the server wrote. */
function showError(e: unknown): void {
  if (e instanceof ApiError) {
    if (e.report) {
      toast(
        `Server error: ${escapeHtml(e.message)}. Your game is saved. ` +
          `<a href="${escapeHtml(e.report)}" target="_blank" id="bug-report-link">Bug report</a>`,
        'error',
        0,
      );
    } else {
      toast(escapeHtml(e.message), 'error');
    }
  } else {
    toast(escapeHtml(String(e)), 'error');
  }
}

let inflight = 0;

async function call<T>(action: string, body?: unknown): Promise<T | null> {
  document.body.dataset.inflight = String(++inflight);  // requests under way (the tests wait for 0)
  try {
    return await api<T>('POST', sessionPath(action), body);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && e.message.includes('session')) {
      await restoreSession();
      return null;
    }
    showError(e);
    lastBoardKey = '';
    render();  // puts the board back after a refused move
    return null;
  } finally {
    document.body.dataset.inflight = String(--inflight);
  }
}

async function post(action: string, body?: unknown): Promise<void> {
  const st = await call<State>(action, body);
  if (st) setState(st);
}

/** The server lost the session (restart, expiry): start a new one and reload the game we had. */
async function restoreSession(): Promise<void> {
  const pgn = sessionStorage.getItem('janus.pgn');
  const created = await api<{ id: string; state: State }>('POST', '/api/sessions');
  app.id = created.id;
  sessionStorage.setItem('janus.session', app.id);
  connectEvents();
  if (pgn && pgn.includes('1.')) {
    const st = await api<State>('POST', sessionPath('load'), { pgn });
    setState(st);
    toast('The server restarted; your game was restored from this tab.');
  } else {
    setState(created.state);
  }
}

function connectEvents(): void {
  app.events?.close();
  const es = new EventSource(sessionPath('events'));
  app.events = es;
  es.addEventListener('state', (ev) => setState(JSON.parse((ev as MessageEvent).data) as State));
  es.addEventListener('info', (ev) => onInfo(JSON.parse((ev as MessageEvent).data) as Info));
  es.addEventListener('review', (ev) => {
    const r = JSON.parse((ev as MessageEvent).data) as { done: number; total: number };
    const bar = $<HTMLProgressElement>('review-progress');
    bar.hidden = false;
    bar.max = r.total;
    bar.value = r.done;
  });
  es.onerror = async () => {
    // EventSource reconnects by itself; if the session is gone, make a new one.
    try {
      await api<State>('GET', sessionPath());
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) await restoreSession();
    }
  };
}

// ---- State and events ---------------------------------------------------------------------------

function setState(st: State): void {
  const prev = app.state;
  if (prev && st.version < prev.version && st.id === prev.id) return;  // an older snapshot
  const plyChanged = !prev || prev.ply !== st.ply || prev.fens[prev.fens.length - 1] !== st.fens[st.fens.length - 1];
  app.state = st;
  app.stateTime = performance.now();
  if (!app.tree || app.tree.startFen !== st.startFen) app.tree = linearTree(st.startFen, st.moves);
  app.path = syncLine(app.tree, st.moves);
  // One move more than before, with the same earlier moves: a move was played (not a load or undo).
  if (prev && st.id === prev.id && st.ply === prev.ply + 1 && st.fens[prev.ply] === prev.fens[prev.ply])
    playSound(soundOf(st.moves[st.ply - 1]!.san));
  if (plyChanged) {
    app.viewPly = st.ply;
    app.hint = null;
    app.evaluation = null;
    app.engineInfo = null;
    for (const k of [...app.liveEvals.keys()]) if (k > st.ply) app.liveEvals.delete(k);
  }
  if (!prev || prev.mode !== st.mode || (prev.id !== st.id)) {
    if (st.mode === 'play') app.orientation = st.human;
  }
  if (st.moves.length > 0) sessionStorage.setItem('janus.pgn', st.pgn);
  render();
  if (app.evalOn && plyChanged) void refreshEvaluation();
}

function onInfo(info: Info): void {
  const st = app.state;
  if (!st) return;
  // With both faces the evaluation (bar, graph) is alpha-beta's, as on the server.
  const evaluates = info.face !== 'mcts' || st.analysis.face !== 'both' || info.kind === 'engine';
  if (evaluates && info.bound === 'exact' && info.multipv === 1) app.liveEvals.set(info.ply, info.score);
  if (info.kind === 'engine') {
    if (info.multipv === 1) app.engineInfo = info;
    document.body.dataset.engineFace = info.face;  // the face that is thinking (for the tests)
  } else {
    const fen = st.fens[app.viewPly];
    if (info.fen !== fen) return;  // for a position no longer shown
    if (info.face === 'mcts') {
      takeMctsInfo(app.mcts, info, fen);
      render();
      return;
    }
    if (app.linesFen !== fen) {
      app.lines.clear();
      app.linesFen = fen;
    }
    if (info.multipv === 1 && app.lines.size > 0) {
      // A new iteration: drop lines beyond the current MultiPV setting.
      for (const k of [...app.lines.keys()]) if (k > st.analysis.multiPv) app.lines.delete(k);
    }
    app.lines.set(info.multipv, info);
  }
  render();
}

// ---- Rendering ---------------------------------------------------------------------------------

function viewedFen(): string {
  const st = app.state!;
  return st.fens[Math.min(app.viewPly, st.fens.length - 1)]!;
}

function humanToMove(st: State): boolean {
  return st.mode === 'play' && !st.over && app.viewPly === st.ply && st.turn === st.human && !st.thinking;
}

function currentScore(): Score | null {
  const st = app.state!;
  if (st.mode === 'analysis' && st.analysis.face === 'mcts' && app.mcts.fen === viewedFen()) {
    const l = app.mcts.lines.get(1);
    if (l) return l.score;
  }
  if (st.mode === 'analysis' && app.linesFen === viewedFen()) {
    const l = app.lines.get(1);
    if (l) return l.score;
  }
  if (app.evaluation && app.evaluation.ply === app.viewPly && app.evaluation.score) return app.evaluation.score;
  const live = app.liveEvals.get(app.viewPly);
  if (live) return live;
  const e = st.evals.find((p) => p.ply === app.viewPly);
  return e ? { cp: e.cp, mate: e.mate } : null;
}

function render(): void {
  const st = app.state;
  if (!st) return;
  const fen = viewedFen();
  const pos = chessFromFen(fen);
  const turn: Color = fen.split(' ')[1] === 'b' ? 'black' : 'white';
  const atEnd = app.viewPly === st.ply;
  const lastUci = app.viewPly > 0 ? st.moves[app.viewPly - 1]!.uci : null;

  let movable: Color | undefined;
  if (st.mode === 'analysis') movable = pos && !pos.isEnd() ? turn : undefined;
  else if (humanToMove(st)) movable = st.human;
  else if (premovesOn() && st.mode === 'play' && !st.over && atEnd) movable = st.human;  // a premove

  // Reconfigure the board only when what it shows changed: engine info events arrive several
  // times a second and must not interrupt a drag in progress (they only change the arrows).
  const boardKey = [fen, app.orientation, movable ?? '', lastUci ?? '', st.version].join('|');
  if (boardKey !== lastBoardKey) {
    lastBoardKey = boardKey;
    cg.set({
      fen,
      orientation: app.orientation,
      turnColor: turn,
      lastMove: lastUci ? [lastUci.slice(0, 2) as Key, lastUci.slice(2, 4) as Key] : undefined,
      check: pos?.isCheck() ? turn : false,
      movable: { color: movable, dests: movable && pos ? (chessgroundDests(pos) as Map<Key, Key[]>) : new Map() },
    });
    if (premovesOn() && humanToMove(st)) cg.playPremove();  // calls onBoardMove if one was set
  }
  cg.setAutoShapes(arrows());

  // Body data attributes: what the page shows, for styling and for the browser tests.
  const b = document.body.dataset;
  b.mode = st.mode;
  b.ply = String(st.ply);
  b.version = String(st.version);
  b.viewPly = String(app.viewPly);
  b.turn = st.turn;
  b.human = st.human;
  b.thinking = String(st.thinking);
  b.over = String(st.over);
  b.result = st.result;
  b.orientation = app.orientation;
  b.analysis = String(st.analysis.on);

  renderPlayers(st);
  renderStatus(st, atEnd);
  renderMoves(st);
  renderFen(st, fen);
  renderAnalysis(st);
  renderEvalBar();
  renderEvalPanel();
  renderGameOver(st);

  $<HTMLButtonElement>('btn-undo').disabled = st.ply === 0;
  $<HTMLButtonElement>('btn-resign').disabled = st.mode !== 'play' || st.over;
  $<HTMLButtonElement>('btn-hint').disabled = st.over || (st.mode === 'play' && st.turn !== st.human);
  $('btn-analysis').classList.toggle('active', st.mode === 'analysis');
  $('btn-eval').classList.toggle('active', app.evalOn);
  $<HTMLAnchorElement>('pgn-download').href = sessionPath('pgn');
  $('footer').textContent = st.gameFile ? `Saved as ${st.gameFile} in ${app.info?.dataDir ?? 'the data folder'}` : '';
}

/** Whether the analysis shows alpha-beta's lines (faces "alphabeta" and "both", engine on). */
function alphaBetaShown(st: State): boolean {
  return st.mode === 'analysis' && st.analysis.on && st.analysis.face !== 'mcts';
}

function arrows(): DrawShape[] {
  const st = app.state!;
  const shapes: DrawShape[] = [];
  if (app.hint && app.hint.ply === app.viewPly) {
    shapes.push({ orig: app.hint.uci.slice(0, 2) as Key, dest: app.hint.uci.slice(2, 4) as Key, brush: 'blue' });
  }
  // Lines and their arrows only while the engine analyses (a review or a stop ends both), and only
  // with alpha-beta's face shown: info events of a search stopped by a face switch may still arrive.
  if (alphaBetaShown(st) && app.linesFen === viewedFen()) {
    const lines = [...app.lines.values()].sort((a, b) => a.multipv - b.multipv);
    lines.forEach((l, i) => {
      const u = l.pv[0];
      if (!u) return;
      shapes.push({
        orig: u.slice(0, 2) as Key,
        dest: u.slice(2, 4) as Key,
        brush: i === 0 ? 'green' : 'paleGreen',
        modifiers: { lineWidth: i === 0 ? 12 : Math.max(4, 10 - 2 * i) },
      });
    });
  }
  if (st.mode === 'analysis' && st.analysis.on && st.analysis.face !== 'alphabeta' && app.mcts.fen === viewedFen())
    shapes.push(...mctsArrows(app.mcts));
  return shapes;
}

function renderPlayers(st: State): void {
  const face = st.face === 'mcts' ? 'Janus MCTS' : 'Janus';
  const janus = st.playouts
    ? `${face} (${st.playouts} playouts)`
    : st.elo
      ? `${face} (Elo ${st.elo})`
      : st.moveTimeMs > 0
        ? `${face} (${st.moveTimeMs} ms/move)`
        : `${face} (level ${st.level})`;
  const name = (c: Color) => (st.mode === 'analysis' ? (c === 'white' ? 'White' : 'Black') : c === st.human ? 'You' : janus);
  const bottom = app.orientation;
  const top = opposite(bottom);
  for (const [id, c] of [['player-top', top], ['player-bottom', bottom]] as const) {
    const el = $(id);
    el.querySelector('.name')!.textContent = `${c === 'white' ? '○' : '●'} ${name(c)}`;
    const clock = el.querySelector<HTMLElement>('.clock')!;
    clock.hidden = !st.clock;
    if (st.clock) {
      const elapsed = st.clock.running === c ? performance.now() - app.stateTime : 0;
      clock.textContent = formatClock(st.clock[c] - elapsed);
      clock.classList.toggle('running', st.clock.running === c);
    }
  }
}

function renderStatus(st: State, atEnd: boolean): void {
  let text: string;
  if (st.over) text = st.message;
  else if (st.mode === 'analysis') text = `Analysis: ${st.turn === 'white' ? 'White' : 'Black'} to move`;
  else if (st.thinking) {
    const i = app.engineInfo;
    const progress = i?.face === 'mcts' ? `${i.nodes} playouts` : `depth ${i?.depth}`;
    text = 'Janus is thinking…' + (i ? ` ${progress}, ${formatScore(i.score)}` : '');
  } else if (st.turn === st.human) text = 'Your move';
  else text = 'Janus to move';
  if (!atEnd) text += ` (viewing move ${app.viewPly} of ${st.ply})`;
  if (app.hint && app.hint.ply === app.viewPly)
    text += ` · Hint: ${app.hint.san} (${formatScore(app.hint.score)}), press H again to play it`;
  $('status').textContent = text;
}

/** ECO code and name of the shown position: the deepest named position up to it. */
function renderOpening(st: State): void {
  let shown = null;
  for (const o of st.openings ?? []) if (o.ply <= app.viewPly) shown = o;
  const el = $('opening');
  el.hidden = !shown;
  el.textContent = shown ? `${shown.eco} ${shown.name}` : '';
  el.title = shown ? `Opening (Lichess's tables, CC0), named at move ${Math.ceil(shown.ply / 2)}` : '';
}

function renderMoves(st: State): void {
  renderOpening(st);
  const box = $('moves');
  const review = st.review?.finished ? st.review.moves : null;
  const mark: Record<string, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };
  // Analysis of a tree (variations, comments, NAGs): the PGN-viewer form.
  const treeShown = st.mode === 'analysis' && !!app.tree && hasExtras(app.tree);
  box.classList.toggle('tree', treeShown);
  if (treeShown) {
    const marks = new Map<number, { cls: string; glyph: string; title: string }>();
    review?.forEach((r, i) => {
      if (r.judgement)
        marks.set(i + 1, { cls: r.judgement, glyph: mark[r.judgement] ?? '', title: `${r.judgement}: -${r.cpLoss} cp, best was ${r.best}` });
    });
    box.innerHTML = renderTree(app.tree!, app.path, app.viewPly, marks) + (st.over ? ` <span class="result">${st.result}</span>` : '');
    box.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
    return;
  }
  const startBlack = st.startFen.split(' ')[1] === 'b';
  const startNumber = Number(st.startFen.split(' ')[5] ?? '1') || 1;
  // Two columns as on Lichess: a grid of rows "number | White's move | Black's move".
  const parts: string[] = [];
  st.moves.forEach((m, i) => {
    const ply = i + 1;
    const whiteMove = startBlack ? i % 2 === 1 : i % 2 === 0;
    const number = startNumber + Math.floor((i + (startBlack ? 1 : 0)) / 2);
    if (whiteMove) parts.push(`<span class="num">${number}.</span>`);
    else if (i === 0) parts.push(`<span class="num">${number}.</span><span class="empty">…</span>`);
    const r = review?.[i];
    const cls = ['move', ply === app.viewPly ? 'current' : '', r?.judgement ?? ''].join(' ');
    const title = r && r.judgement ? ` title="${r.judgement}: -${r.cpLoss} cp, best was ${escapeHtml(r.best)}"` : '';
    parts.push(`<span class="${cls}" data-ply="${ply}"${title}>${escapeHtml(m.san)}${r ? mark[r.judgement] ?? '' : ''}</span>`);
  });
  if (st.over) parts.push(`<span class="result">${st.result}</span>`);
  box.innerHTML = parts.join('');
  box.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
}

function renderFen(st: State, fen: string): void {
  $<HTMLInputElement>('fen').value = fen;
  const list = $('fen-list');
  if (list.childElementCount !== st.fens.length || list.dataset.version !== String(st.version)) {
    list.replaceChildren(
      ...st.fens.map((f, i) => {
        const li = document.createElement('li');
        li.textContent = f;
        li.dataset.ply = String(i);
        return li;
      }),
    );
    list.dataset.version = String(st.version);
  }
  list.querySelectorAll('li').forEach((li) => li.classList.toggle('current', li.dataset.ply === String(app.viewPly)));
}

function renderAnalysis(st: State): void {
  const panel = $('analysis-panel');
  panel.hidden = st.mode !== 'analysis' && !st.over;
  const graphShown = st.mode === 'analysis' || st.over;
  $('graph-box').hidden = !graphShown;
  $('btn-analyse-toggle').textContent = st.analysis.on ? 'Stop engine' : 'Start engine';
  $('btn-analyse-toggle').hidden = st.mode !== 'analysis';
  $<HTMLSelectElement>('multipv').value = String(st.analysis.on ? st.analysis.multiPv : wantedMultiPv());
  const face = st.analysis.on ? st.analysis.face : wantedAnalysisFace();
  $<HTMLSelectElement>('analysis-face').value = face;
  $('analysis-face').parentElement!.hidden = st.mode !== 'analysis';
  // The Lines menu is alpha-beta's: the MCTS table lists its own top moves.
  $('multipv').parentElement!.hidden = st.mode !== 'analysis' || face === 'mcts';
  const fen = viewedFen();
  const lines = app.linesFen === fen ? [...app.lines.values()].sort((a, b) => a.multipv - b.multipv) : [];
  const first = lines[0];
  const running = st.mode === 'analysis' && st.analysis.on;
  document.body.dataset.analysisFace = running ? st.analysis.face : '';
  const abShown = alphaBetaShown(st);
  $('analysis-stats').textContent =
    abShown && first
      ? `${st.analysis.face === 'both' ? 'Alpha-beta: ' : ''}depth ${first.depth}/${first.seldepth} · ${(first.nps / 1000).toFixed(0)} kn/s · ${(first.nodes / 1e6).toFixed(2)} M nodes`
      : '';
  const mctsBox = $('mcts-box');
  mctsBox.hidden = !running || st.analysis.face === 'alphabeta';
  if (!mctsBox.hidden) {
    const view = app.mcts.fen === fen ? app.mcts : emptyMctsView();
    mctsBox.innerHTML = (st.analysis.face === 'both' ? '<h3>MCTS</h3>' : '') + mctsTableHtml(view, (pv) => pvToSan(fen, pv));
  }
  $('lines').innerHTML =
    abShown
      ? lines
          .map((l) => {
            const san = pvToSan(fen, l.pv.slice(0, 12));
            return `<li data-multipv="${l.multipv}"><b>${formatScore(l.score)}</b> <span class="pv">${escapeHtml(san.join(' '))}</span></li>`;
          })
          .join('')
      : '';
  // Review.
  const rv = st.review;
  const reviewBtn = $<HTMLButtonElement>('btn-review');
  reviewBtn.disabled = st.ply === 0 || !!rv?.running || (st.mode === 'play' && !st.over);
  const bar = $<HTMLProgressElement>('review-progress');
  bar.hidden = !rv?.running;
  if (rv?.running) {
    bar.max = rv.total;
    bar.value = rv.done;
  }
  const sum = $('review-summary');
  if (rv?.finished) {
    const row = (c: Color) => {
      const s = rv.summary[c];
      return `<tr><th>${c === 'white' ? 'White' : 'Black'}</th><td class="inaccuracy">${s.inaccuracies}</td><td class="mistake">${s.mistakes}</td><td class="blunder">${s.blunders}</td><td>${s.acpl}</td></tr>`;
    };
    sum.innerHTML =
      `<table id="review-table"><tr><th></th><th>Inaccuracies</th><th>Mistakes</th><th>Blunders</th><th>Avg. cp loss</th></tr>${row('white')}${row('black')}</table>` +
      `<p class="note">Centipawn loss ≥ ${rv.thresholds.inaccuracy} inaccuracy (?!), ≥ ${rv.thresholds.mistake} mistake (?), ≥ ${rv.thresholds.blunder} blunder (??).</p>`;
  } else {
    sum.innerHTML = '';
  }
  // Graph: review/server evaluations, refined by live analysis scores.
  if (graphShown) {
    const pts = new Map<number, Score>();
    for (const e of st.evals) pts.set(e.ply, { cp: e.cp, mate: e.mate });
    for (const [ply, s] of app.liveEvals) if (ply <= st.ply) pts.set(ply, s);
    const points: GraphPoint[] = [...pts].map(([ply, score]) => ({ ply, score }));
    const startNumber = Number(st.startFen.split(' ')[5] ?? '1') || 1;
    const startBlack = st.startFen.split(' ')[1] === 'b';
    drawGraph($('graph') as unknown as SVGSVGElement, $('graph-labels'), points, st.ply, app.viewPly,
      rv?.finished ? rv.moves : null, goTo, (ply) => startNumber + Math.floor((ply - 1 + (startBlack ? 1 : 0)) / 2));
  }
}

function renderEvalBar(): void {
  const st = app.state!;
  const bar = $('eval-bar');
  bar.hidden = !(app.evalOn || st.mode === 'analysis');
  document.body.classList.toggle('eval-shown', !bar.hidden);  // narrow screens: a smaller board
  if (bar.hidden) return;
  const s = currentScore();
  const chances = s ? winningChances(s) : 0;
  const whitePct = 50 + 50 * chances;
  const white = $('eval-bar-white');
  white.style.height = `${whitePct}%`;
  bar.classList.toggle('flipped', app.orientation === 'black');
  $('eval-bar-text').textContent = formatScore(s);
  bar.dataset.score = formatScore(s);
}

function renderEvalPanel(): void {
  const panel = $('eval-panel');
  panel.hidden = !app.evalOn;
  if (!app.evalOn) return;
  const ev = app.evaluation;
  $('eval-score').textContent = ev ? `${formatScore(ev.score ?? currentScore())} (depth ${ev.depth}, White's view)` : '…';
  const table = $('eval-table');
  if (!ev) {
    table.innerHTML = '';
    return;
  }
  const cell = (t: { mg: number; eg: number; cp: number }) => `<td>${t.mg}</td><td>${t.eg}</td><td class="cp">${t.cp}</td>`;
  table.innerHTML =
    '<tr><th rowspan="2">Term</th><th colspan="3">White</th><th colspan="3">Black</th><th colspan="3">White − Black</th></tr>' +
    '<tr>' + '<th>mg</th><th>eg</th><th>cp</th>'.repeat(3) + '</tr>' +
    ev.static.terms.map((t) => `<tr><th>${escapeHtml(t.term)}</th>${cell(t.white)}${cell(t.black)}${cell(t.total)}</tr>`).join('');
  $('eval-notes').textContent =
    `Static (hand-crafted) evaluation: ${formatScore({ cp: ev.static.whiteCp })} for White; ` +
    `phase ${ev.static.phase}/${ev.static.phaseMax}, endgame scale ${ev.static.scale}/${ev.static.scaleNormal}.` +
    (!ev.static.nnue
      ? ' NNUE: no network built in.'
      : ev.static.nnue.loneKing
        ? ' NNUE evaluation: a side has only its king, so the engine uses the hand-crafted evaluation here, not the network' +
          ` (${ev.static.nnue.network}).`
        : ` NNUE evaluation: ${formatScore({ cp: ev.static.nnue.whiteCp })} for White (${ev.static.nnue.network}).`);
}

function renderGameOver(st: State): void {
  const box = $('game-over');
  const show = st.over && app.viewPly === st.ply && box.dataset.dismissed !== String(st.version);
  box.hidden = !show;
  if (show) {
    $('game-over-message').textContent = st.message;
    $('game-over-result').textContent = st.result;
  }
}

// ---- Actions -----------------------------------------------------------------------------------

function goTo(ply: number): void {
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

function onBoardMove(orig: Key, dest: Key): void {
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
async function switchLine(node: MoveNode): Promise<void> {
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

function setupMoveInput(): void {
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

function choosePromotion(key: string | null): void {
  const p = app.promotion;
  app.promotion = null;
  $('promotion').hidden = true;
  if (!p || !key) {
    lastBoardKey = '';
    render();
    return;
  }
  void sendMove(p.orig + p.dest + key);
}

async function hint(): Promise<void> {
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

async function toggleEval(): Promise<void> {
  app.evalOn = !app.evalOn;
  render();
  if (app.evalOn) await refreshEvaluation();
}

async function refreshEvaluation(): Promise<void> {
  const ply = app.viewPly;
  const ev = await call<Evaluation>('evaluate', { ply });
  if (ev && ev.ply === app.viewPly) {
    app.evaluation = ev;
    if (ev.score) app.liveEvals.set(ev.ply, ev.score);
    render();
  }
}

async function toggleAnalysis(): Promise<void> {
  const st = app.state;
  if (!st) return;
  if (st.mode === 'analysis') {
    await post('mode', { mode: 'play', color: st.human });
  } else {
    await post('mode', { mode: 'analysis' });
    await post('analysis', { on: true, ...analysisOptions(), ply: app.viewPly });
  }
}

async function copy(text: string, what: string): Promise<void> {
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

async function review(): Promise<void> {
  const depth = Number($<HTMLSelectElement>('review-depth').value) || 10;
  await post('review', { depth, moveTimeMs: 1000 });
}

function undo(): void {
  cg.cancelPremove();
  void post('undo');
}

function flip(): void {
  app.orientation = opposite(app.orientation);
  render();
}

function openDialog(id: string): void {
  const d = $<HTMLDialogElement>(id);
  if (!d.open) d.showModal();
}

function anyDialogOpen(): boolean {
  return [...document.querySelectorAll('dialog')].some((d) => (d as HTMLDialogElement).open);
}

// ---- Dialogs -----------------------------------------------------------------------------------

function setupNewGameDialog(info: ServerInfo): void {
  const d = info.defaults;
  const sel = $<HTMLSelectElement>('level-select');
  sel.innerHTML = info.levels
    .map((l) => `<option value="${l.level}">${l.level}: ${l.depth ? `depth ${l.depth}, ` : ''}${l.moveTimeMs} ms</option>`)
    .join('');
  sel.value = localStorage.getItem('janus.level') ?? String(d.level);
  const moveTime = document.querySelector<HTMLInputElement>('#dlg-new input[name="moveTimeMs"]')!;
  moveTime.value = String(d.moveTimeMs);
  // Strength by Elo (the engine's UCI_Elo, engine/strength.h), by level (depth + time caps) or by a
  // fixed time per move. Elo is offered only when the engine declares UCI_Elo. The defaults are the
  // server's (/api/info "defaults"), the same ones a new session plays at.
  const elo = $<HTMLInputElement>('elo-range');
  const eloRadio = $<HTMLInputElement>('strength-elo');
  if (info.elo) {
    elo.min = String(info.elo.min);
    elo.max = String(info.elo.max);
    elo.value = localStorage.getItem('janus.elo') ?? String(d.elo ?? info.elo.default);
    $('elo-note').textContent = elo.value;
    elo.oninput = () => {
      $('elo-note').textContent = elo.value;
      eloRadio.checked = true;
    };
  } else {
    elo.disabled = true;
    eloRadio.disabled = true;
    $('elo-note').textContent = 'not offered: the engine has no UCI_Elo option';
  }
  // Choosing a value of one way selects that way.
  const pick = (id: string) => () => ($<HTMLInputElement>(id).checked = true);
  sel.addEventListener('change', pick('strength-level'));
  sel.addEventListener('input', pick('strength-level'));
  moveTime.addEventListener('input', pick('strength-time'));
  const strength = localStorage.getItem('janus.strength') ?? d.strength;
  const radio = document.querySelector<HTMLInputElement>(`input[name="strength"][value="${strength}"]`);
  if (radio && !radio.disabled) radio.checked = true;
  // The MCTS face plays by playouts per move (default: the server's) or by time; the fieldset of
  // the chosen face is shown (Elo and levels are alpha-beta's).
  const playouts = $<HTMLInputElement>('mcts-playouts');
  playouts.min = String(info.mcts.playouts.min);
  playouts.max = String(info.mcts.playouts.max);
  playouts.value = localStorage.getItem('janus.playouts') ?? String(d.mctsPlayouts);
  const mctsTime = document.querySelector<HTMLInputElement>('#dlg-new input[name="mctsMoveTimeMs"]')!;
  mctsTime.value = localStorage.getItem('janus.mctsMoveTimeMs') ?? String(d.moveTimeMs);
  playouts.addEventListener('input', pick('mcts-strength-playouts'));
  mctsTime.addEventListener('input', pick('mcts-strength-time'));
  const mctsHow = localStorage.getItem('janus.mctsStrength') === 'time' ? 'mcts-strength-time' : 'mcts-strength-playouts';
  $<HTMLInputElement>(mctsHow).checked = true;
  const faceSelect = $<HTMLSelectElement>('face-select');
  const showStrength = () => {
    const mcts = faceSelect.value === 'mcts';
    // Hidden and disabled: the other face's fields are neither validated nor sent.
    for (const [id, off] of [['strength-ab', mcts], ['strength-mcts', !mcts]] as const) {
      $(id).hidden = off;
      $<HTMLFieldSetElement>(id).disabled = off;
    }
  };
  faceSelect.addEventListener('change', showStrength);
  showStrength();
  const form = $<HTMLFormElement>('form-new');
  $<HTMLDialogElement>('dlg-new').addEventListener('close', () => {
    if ($<HTMLDialogElement>('dlg-new').returnValue !== 'start') return;
    const f = new FormData(form);
    const face = faceSelect.value;
    localStorage.setItem('janus.face', face);
    const body: Record<string, unknown> = { color: f.get('color'), face };
    const how = String(f.get('strength') ?? 'level');
    if (face === 'mcts') {
      const mctsWay = String(f.get('mctsStrength') ?? 'playouts');
      localStorage.setItem('janus.mctsStrength', mctsWay);
      if (mctsWay === 'time') {
        body.moveTimeMs = Math.max(50, Number(f.get('mctsMoveTimeMs')) || d.moveTimeMs);
        localStorage.setItem('janus.mctsMoveTimeMs', String(body.moveTimeMs));
      } else {
        const p = Math.round(Number(f.get('playouts')) || d.mctsPlayouts);
        body.playouts = Math.min(info.mcts.playouts.max, Math.max(info.mcts.playouts.min, p));
        localStorage.setItem('janus.playouts', String(body.playouts));
      }
    } else if (how === 'elo' && info.elo) {
      localStorage.setItem('janus.strength', how);
      body.elo = Number(elo.value);
      localStorage.setItem('janus.elo', elo.value);
    } else if (how === 'time') {
      localStorage.setItem('janus.strength', how);
      body.moveTimeMs = Math.max(50, Number(f.get('moveTimeMs')) || d.moveTimeMs);
    } else {
      localStorage.setItem('janus.strength', how);
      body.level = Number(f.get('level'));
      localStorage.setItem('janus.level', String(body.level));
    }
    const clock = String(f.get('clock') ?? '');
    if (clock) {
      const [m, s] = clock.split('+').map(Number);
      body.clock = { minutes: m, increment: s };
    }
    const fen = String(f.get('fen') ?? '').trim();
    if (fen) body.fen = fen;
    app.lines.clear();
    app.liveEvals.clear();
    app.tree = null;
    $('game-over').dataset.dismissed = '';
    void call<State>('new', body).then((st) => {
      if (!st) return;
      app.orientation = st.human;  // the player's side at the bottom
      setState(st);
      render();  // also when a newer state from the event stream arrived first
    });
  });
}

function setupLoadDialog(): void {
  const dlg = $<HTMLDialogElement>('dlg-load');
  const form = $<HTMLFormElement>('form-load');
  const error = $('load-error');
  const pick = $('load-pick');
  const select = $<HTMLSelectElement>('load-game');
  const text = () => String(new FormData(form).get('text') ?? '').trim();
  const isPgn = (t: string) => /\[|\d+\.\s*\S/.test(t);
  // The games of the text in the box (chessops's parser), kept while the text stays the same.
  let parsed: { text: string; games: ReturnType<typeof pgnGames> } | null = null;
  const games = (t: string) => {
    if (parsed?.text !== t) parsed = { text: t, games: isPgn(t) ? pgnGames(t) : [] };
    return parsed.games;
  };
  form.addEventListener('submit', (e) => {
    if ((e.submitter as HTMLButtonElement | null)?.value !== 'load') return;
    const t = text();
    if (!t) {
      // Load with an empty box: keep the dialog open and say what it wants.
      e.preventDefault();
      error.textContent = 'Nothing to load: paste a FEN or a PGN into the box.';
      error.hidden = false;
      return;
    }
    const found = games(t);
    if (found.length > 1 && pick.hidden) {
      // Several games: the player picks one first.
      e.preventDefault();
      select.innerHTML = found.map((g, i) => `<option value="${i}">${escapeHtml(gameSummary(g, i))}</option>`).join('');
      pick.hidden = false;
      error.textContent = `This PGN has ${found.length} games: pick one and press Load.`;
      error.hidden = false;
    }
  });
  form.addEventListener('input', (e) => {
    if (e.target === select) return;
    error.hidden = true;
    pick.hidden = true;
  });
  dlg.addEventListener('close', async () => {
    error.hidden = true;
    const chosen = pick.hidden ? 0 : Number(select.value) || 0;
    pick.hidden = true;
    if (dlg.returnValue !== 'load') return;
    const f = new FormData(form);
    const t = String(f.get('text') ?? '').trim();
    if (!t) return;
    const pgn = isPgn(t);
    // A PGN's game as a move tree (variations, comments, NAGs); the server gets the game's text
    // (it reads the main line). A text chessops cannot read goes to the server as it is, which
    // names the problem.
    let tree: MoveTree | null = null;
    let body: { pgn: string } | { fen: string } = pgn ? { pgn: t } : { fen: t };
    const game = pgn ? games(t)[chosen] : undefined;
    if (game) {
      const built = treeFromGame(game);
      if (typeof built !== 'string') {
        tree = built.tree;
        body = { pgn: treePgn(built.tree) };
        if (built.skipped) toast(`${built.skipped} move(s) of the PGN's variations are not legal and were left out.`, 'error');
      }
    }
    app.lines.clear();
    app.liveEvals.clear();
    // Into analysis mode first: loaded in play mode, a game with Janus to move would get Janus's
    // reply before the switch.
    const analyse = !!f.get('analyse');
    if (analyse && app.state?.mode !== 'analysis') await post('mode', { mode: 'analysis' });
    const st = await call<State>('load', body);
    if (!st) return;
    app.tree = tree;  // null: a line of its own (setState builds it)
    setState(st);
    if (analyse) await post('analysis', { on: true, ...analysisOptions() });
    toast(pgn ? 'PGN loaded' : 'FEN loaded');
  });
}

function setupThemeDialog(): void {
  const theme = localStorage.getItem('janus.theme') ?? 'brown';
  const pieces = localStorage.getItem('janus.pieces') ?? 'cburnett';
  const build = (boxId: string, name: string, values: string[], current: string) => {
    const box = $(boxId);
    for (const v of values) {
      const label = document.createElement('label');
      label.innerHTML = `<input type="radio" name="${name}" value="${v}"${v === current ? ' checked' : ''}> ${v}`;
      box.appendChild(label);
    }
    box.addEventListener('change', () => {
      const t = (document.querySelector('input[name="theme"]:checked') as HTMLInputElement).value;
      const p = (document.querySelector('input[name="pieces"]:checked') as HTMLInputElement).value;
      applyAppearance(t, p);
    });
  };
  const pre = $<HTMLInputElement>('premoves');
  pre.checked = premovesOn();
  pre.addEventListener('change', () => {
    localStorage.setItem('janus.premoves', String(pre.checked));
    cg.set({ premovable: { enabled: pre.checked } });
    if (!pre.checked) cg.cancelPremove();
    lastBoardKey = '';
    render();
  });
  const sounds = $<HTMLInputElement>('sounds');
  sounds.checked = soundsOn();
  sounds.addEventListener('change', () => localStorage.setItem('janus.sounds', String(sounds.checked)));
  build('theme-choices', 'theme', kThemes, theme);
  build('piece-choices', 'pieces', kPieceSets, pieces);
  applyAppearance(theme, pieces);
}

const kShortcuts: [string, string][] = [
  ['N', 'New game'],
  ['U', 'Undo / take back'],
  ['H', 'Hint (press again: the engine plays it)'],
  ['E', 'Evaluation: eval bar, score, hand-crafted terms'],
  ['F', 'Flip board'],
  ['C', 'Board theme and piece set'],
  ['A', 'Analysis mode on/off'],
  ['Space', 'Start/stop the engine (analysis)'],
  ['R', 'Review the game (analysis or finished game)'],
  ['L', 'Load FEN or PGN'],
  ['P / ←', 'Previous position (FEN history)'],
  ['D / →', 'Next position (FEN history)'],
  ['Home / End', 'First / last position'],
  ['Q R B N', 'Promotion piece (when the picker is open)'],
  ['?', 'This help'],
  ['Esc', 'Close a dialog'],
];

function setupHelp(): void {
  $('help-table').innerHTML = kShortcuts.map(([k, v]) => `<tr><td><kbd>${k}</kbd></td><td>${v}</td></tr>`).join('');
}

// ---- Input -------------------------------------------------------------------------------------

function onKey(e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  // Keys typed into text fields and selects are theirs; checkboxes and radios do not take letters.
  const target = e.target as HTMLElement;
  if (target.closest('textarea, select, input:not([type="checkbox"]):not([type="radio"])')) return;
  if (app.promotion) {
    const k = e.key.toLowerCase();
    if ('qrbn'.includes(k) && k.length === 1) choosePromotion(k);
    else if (e.key === 'Escape') choosePromotion(null);
    e.preventDefault();
    return;
  }
  if (anyDialogOpen()) return;
  const st = app.state;
  if (!st) return;
  const actions: Record<string, () => void> = {
    n: () => openDialog('dlg-new'),
    u: () => undo(),
    h: () => void hint(),
    e: () => void toggleEval(),
    f: flip,
    c: () => openDialog('dlg-theme'),
    a: () => void toggleAnalysis(),
    r: () => void review(),
    l: () => openDialog('dlg-load'),
    p: () => goTo(app.viewPly - 1),
    d: () => goTo(app.viewPly + 1),
    arrowleft: () => goTo(app.viewPly - 1),
    arrowright: () => goTo(app.viewPly + 1),
    home: () => goTo(0),
    end: () => goTo(st.ply),
    '?': () => openDialog('dlg-help'),
    ' ': () => {
      if (st.mode === 'analysis') void post('analysis', { on: !st.analysis.on, ...analysisOptions(), ply: app.viewPly });
    },
  };
  const fn = actions[e.key.toLowerCase()];
  if (fn) {
    e.preventDefault();
    fn();
  }
}

function wireButtons(): void {
  const click = (id: string, fn: () => void) => $(id).addEventListener('click', fn);
  click('btn-new', () => openDialog('dlg-new'));
  click('btn-analysis', () => void toggleAnalysis());
  click('btn-load', () => openDialog('dlg-load'));
  click('btn-help', () => openDialog('dlg-help'));
  click('btn-undo', () => undo());
  click('btn-hint', () => void hint());
  click('btn-eval', () => void toggleEval());
  click('btn-flip', flip);
  click('btn-theme', () => openDialog('dlg-theme'));
  click('btn-resign', () => {
    if (confirm('Resign this game?')) void post('resign');
  });
  click('btn-first', () => goTo(0));
  click('btn-prev', () => goTo(app.viewPly - 1));
  click('btn-next', () => goTo(app.viewPly + 1));
  click('btn-last', () => goTo(app.state?.ply ?? 0));
  click('btn-copy-fen', () => void copy(viewedFen(), 'FEN'));
  click('btn-copy-pgn', () => {
    // In analysis, the whole tree (variations, comments, NAGs); the server's PGN holds one line.
    const tree = app.state?.mode === 'analysis' && app.tree && hasExtras(app.tree) ? app.tree : null;
    void copy(tree ? treePgn(tree) : app.state?.pgn ?? '', 'PGN');
  });
  click('btn-review', () => void review());
  click('btn-analyse-toggle', () => {
    const st = app.state;
    if (st) void post('analysis', { on: !st.analysis.on, ...analysisOptions(), ply: app.viewPly });
  });
  $('analysis-face').addEventListener('change', () => {
    localStorage.setItem('janus.analysisFace', $<HTMLSelectElement>('analysis-face').value);
    app.lines.clear();
    app.mcts = emptyMctsView();
    const st = app.state;
    if (st?.mode === 'analysis') void post('analysis', { on: true, ...analysisOptions(), ply: app.viewPly });
  });
  $('multipv').addEventListener('change', () => {
    localStorage.setItem('janus.multipv', $<HTMLSelectElement>('multipv').value);
    const st = app.state;
    if (st?.mode === 'analysis') void post('analysis', { on: true, ...analysisOptions(), ply: app.viewPly });
  });
  $('moves').addEventListener('click', (e) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('[data-ply], [data-node]');
    if (el?.dataset.ply) goTo(Number(el.dataset.ply));
    else if (el?.dataset.node) {
      const node = app.tree?.nodes.get(Number(el.dataset.node));
      if (node) void switchLine(node);
    }
  });
  $('fen-list').addEventListener('click', (e) => {
    const el = (e.target as HTMLElement).closest<HTMLElement>('[data-ply]');
    if (el) goTo(Number(el.dataset.ply));
  });
  click('game-over-close', () => {
    $('game-over').dataset.dismissed = String(app.state?.version ?? '');
    render();
  });
  click('game-over-new', () => openDialog('dlg-new'));
  click('game-over-review', async () => {
    if (app.state?.mode !== 'analysis') await post('mode', { mode: 'analysis' });
    await review();
  });
  click('game-over-analyse', async () => {
    await post('mode', { mode: 'analysis' });
    await post('analysis', { on: true, ...analysisOptions() });
  });
  document.addEventListener('keydown', onKey);
  window.addEventListener('pagehide', () => {
    app.events?.close();
    if (app.id) navigator.sendBeacon(sessionPath('leave'));
  });
  // Clocks tick locally between server updates.
  setInterval(() => {
    if (app.state?.clock?.running) renderPlayers(app.state);
  }, 100);
}

/**
 * Keeps chessground's idea of where the board is right. Chessground caches the board's screen
 * rectangle and forgets it only on window scroll and resize, but the board also moves when the page
 * around it changes (the header wraps once the engine faces arrive, panels open): a tap would then
 * land on the square above or below. So the cache is dropped before every press on the board, and
 * the board is redrawn whenever its size changes.
 */
function watchBoardBounds(): void {
  const board = $('board');
  const forget = () => cg.state.dom.bounds.clear();
  for (const ev of ['mousedown', 'touchstart', 'pointerdown'])
    board.addEventListener(ev, forget, { capture: true, passive: true });
  new ResizeObserver(() => cg.redrawAll()).observe($('board-wrap'));
}

// ---- Start -------------------------------------------------------------------------------------

async function start(): Promise<void> {
  cg = Chessground($('board'), {
    coordinates: true,
    autoCastle: true,
    premovable: { enabled: premovesOn() },
    predroppable: { enabled: false },
    draggable: { enabled: true, showGhost: true },
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 150 },
    movable: { free: false, showDests: true, events: { after: onBoardMove } },
    drawable: { enabled: true, visible: true },
  });
  watchBoardBounds();
  wireButtons();
  setupThemeDialog();
  setupHelp();
  setupLoadDialog();
  setupMoveInput();
  try {
    app.info = await api<ServerInfo>('GET', '/api/info');
  } catch (e) {
    showError(e);
    return;
  }
  const faces = $<HTMLSelectElement>('face-select');
  faces.innerHTML = app.info.faces
    .map((f) => `<option value="${f.id}"${f.available ? '' : ' disabled'}>${escapeHtml(f.name)}${f.available ? '' : ' (not in this build)'}</option>`)
    .join('');
  const savedFace = localStorage.getItem('janus.face');
  if (savedFace && app.info.faces.some((f) => f.id === savedFace && f.available)) faces.value = savedFace;
  setupNewGameDialog(app.info);

  // One session per tab: sessionStorage survives reloads of this tab but is not shared with others.
  const saved = sessionStorage.getItem('janus.session');
  let st: State | null = null;
  if (saved) {
    try {
      app.id = saved;
      st = await api<State>('GET', sessionPath());
    } catch {
      st = null;
    }
  }
  if (!st) {
    await restoreSession();
  } else {
    connectEvents();
    setState(st);
  }
  document.body.dataset.ready = 'true';
}

// For the browser tests of the error path: asks the server for a simulated internal error (the
// endpoint exists only with `janus gui --debug-endpoints`; otherwise the server answers 404).
(window as unknown as { janus: unknown }).janus = { debugFail: () => post('debug/fail') };

void start();
