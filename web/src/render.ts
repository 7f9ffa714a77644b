// Rendering: the board, players and clocks, status line, move list, FEN history, analysis panel
// (lines, MCTS table, review, graph), evaluation bar and panel, and the game-over box, all from the
// application state (state.ts).

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { chessgroundDests } from 'chessops/compat';

import type { Color, Score, State } from './api';
import { goTo } from './actions';
import { drawGraph, winningChances } from './graph';
import type { GraphPoint } from './graph';
import { emptyMctsView, mctsArrows, mctsTableHtml } from './mcts';
import { sessionPath } from './session';
import { premovesOn, wantedAnalysisFace, wantedMultiPv } from './settings';
import { app, cg } from './state';
import { hasExtras, renderTree } from './tree';
import { $, chessFromFen, escapeHtml, formatClock, formatScore, opposite, pvToSan, touchScreen } from './util';

export function viewedFen(): string {
  const st = app.state!;
  return st.fens[Math.min(app.viewPly, st.fens.length - 1)]!;
}

export function humanToMove(st: State): boolean {
  return st.mode === 'play' && !st.over && app.viewPly === st.ply && st.turn === st.human && !st.thinking;
}

export function currentScore(): Score | null {
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

/** What the board was last configured to show (see render). */
let lastBoardKey = '';

/**
 * Renders the page with the board reconfigured even when what it shows did not change: puts back
 * a move the server refused or a promotion that was cancelled.
 */
export function redrawBoard(): void {
  lastBoardKey = '';
  render();
}

export function render(): void {
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

export function renderPlayers(st: State): void {
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
    const progress = i?.face === 'mcts' ? `${i.playouts ?? i.nodes} playouts` : `depth ${i?.depth}`;
    text = 'Janus is thinking…' + (i ? ` ${progress}, ${formatScore(i.score)}` : '');
  } else if (st.turn === st.human) text = 'Your move';
  else text = 'Janus to move';
  if (!atEnd) text += ` (viewing move ${app.viewPly} of ${st.ply})`;
  if (app.hint && app.hint.ply === app.viewPly)
    text += ` · Hint: ${app.hint.san} (${formatScore(app.hint.score)}), ${touchScreen() ? 'tap Hint again' : 'press H again'} to play it`;
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
  // A position that is over by the rules shows its result: a mate fills the bar for the winner.
  const pos = chessFromFen(viewedFen());
  let s = currentScore();
  let text = formatScore(s);
  if (pos?.isCheckmate()) {
    s = { mate: 0, mated: pos.turn };
    text = formatScore(s);
  } else if (pos?.isEnd()) {
    s = { cp: 0 };
    text = '½-½';
  }
  const chances = s ? winningChances(s) : 0;
  const whitePct = 50 + 50 * chances;
  const white = $('eval-bar-white');
  white.style.height = `${whitePct}%`;
  bar.classList.toggle('flipped', app.orientation === 'black');
  $('eval-bar-text').textContent = text;
  bar.dataset.score = text;
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

/**
 * What the game-over box announces: the game's end (its final position and result). The box stays
 * closed for that end once the player closed it or chose Review or Analyse, whatever else changes.
 */
export function gameOverKey(st: State): string {
  return `${st.id}|${st.fens[st.fens.length - 1]}|${st.ply}|${st.result}|${st.termination}`;
}

function renderGameOver(st: State): void {
  const box = $('game-over');
  const show = st.over && app.viewPly === st.ply && box.dataset.dismissed !== gameOverKey(st);
  box.hidden = !show;
  if (show) {
    $('game-over-message').textContent = st.message;
    $('game-over-result').textContent = st.result;
  }
}
