// Server calls of the page's session (the JSON API, docs/gui.md) and its server-sent-events stream:
// the state and info events update the application state and redraw the page.

import { api, ApiError } from './api';
import type { Info, State } from './api';
import { refreshEvaluation } from './actions';
import { takeMctsInfo } from './mcts';
import { redrawBoard, render } from './render';
import { playSound, soundOf } from './settings';
import { app } from './state';
import { linearTree, syncLine } from './tree';
import { $, escapeHtml, toast } from './util';

// ---- Server calls ------------------------------------------------------------------------------

export function sessionPath(action = ''): string {
  return `/api/sessions/${app.id}${action ? '/' + action : ''}`;
}

/** Reports an API error; server errors (500) link to the bug report the server wrote. */
export function showError(e: unknown): void {
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

/**
 * POSTs `action` of the session and returns the answer; throws the ApiError of a refusal (the
 * caller shows it where it belongs, e.g. beside the text of a dialog). Counts the requests under
 * way in body[data-inflight] (the tests wait for 0).
 */
export async function request<T>(action: string, body?: unknown): Promise<T> {
  document.body.dataset.inflight = String(++inflight);
  try {
    return await api<T>('POST', sessionPath(action), body);
  } finally {
    document.body.dataset.inflight = String(--inflight);
  }
}

/** Whether `e` says the server no longer has this tab's session (restart, expiry). */
export function sessionLost(e: unknown): boolean {
  return e instanceof ApiError && e.status === 404 && e.message.includes('session');
}

/** request() that reports a refusal as a toast and answers null (a lost session is restored). */
export async function call<T>(action: string, body?: unknown): Promise<T | null> {
  try {
    return await request<T>(action, body);
  } catch (e) {
    if (sessionLost(e)) {
      await restoreSession();
      return null;
    }
    showError(e);
    redrawBoard();  // puts the board back after a refused move
    return null;
  }
}

export async function post(action: string, body?: unknown): Promise<void> {
  const st = await call<State>(action, body);
  if (st) setState(st);
}

/** The server lost the session (restart, expiry): start a new one and reload the game we had. */
export async function restoreSession(): Promise<void> {
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

export function connectEvents(): void {
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

export function setState(st: State): void {
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

export function onInfo(info: Info): void {
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
