// Input: keyboard shortcuts, the buttons and lists of the page, and the board's screen bounds.

import { anyDialogOpen, choosePromotion, copy, flip, goTo, hint, openDialog, review, switchLine, toggleAnalysis, toggleEval, undo } from './actions';
import { emptyMctsView } from './mcts';
import { gameOverKey, render, renderPlayers, viewedFen } from './render';
import { post, sessionPath } from './session';
import { analysisOptions } from './settings';
import { app, cg } from './state';
import { hasExtras, treePgn } from './tree';
import { $ } from './util';

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

export function wireButtons(): void {
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
  // Each button of the game-over box closes it (for this game's end: gameOverKey).
  const dismiss = () => {
    if (app.state) $('game-over').dataset.dismissed = gameOverKey(app.state);
    render();
  };
  click('game-over-close', dismiss);
  click('game-over-new', () => {
    dismiss();
    openDialog('dlg-new');
  });
  click('game-over-review', async () => {
    dismiss();
    if (app.state?.mode !== 'analysis') await post('mode', { mode: 'analysis' });
    await review();
  });
  click('game-over-analyse', async () => {
    dismiss();
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
export function watchBoardBounds(): void {
  const board = $('board');
  const forget = () => cg.state.dom.bounds.clear();
  for (const ev of ['mousedown', 'touchstart', 'pointerdown'])
    board.addEventListener(ev, forget, { capture: true, passive: true });
  new ResizeObserver(() => cg.redrawAll()).observe($('board-wrap'));
}
