// Janus web GUI. The server (src/server) holds the game and runs the engine; this page shows the
// board (Lichess's chessground), uses chessops only for legal-destination highlighting and SAN
// display, and talks to the server through the JSON API and its server-sent-events stream.
//
// The page's modules: state.ts (application state), session.ts (server calls and events),
// render.ts, actions.ts, dialogs.ts, input.ts, settings.ts (appearance, sounds) and util.ts; api.ts,
// tree.ts, mcts.ts and graph.ts as before. This one starts the page.

import { Chessground } from '@lichess-org/chessground';

import { api } from './api';
import type { ServerInfo, State } from './api';
import { onBoardMove, setupMoveInput } from './actions';
import { setupHelp, setupLoadDialog, setupNewGameDialog, setupServerSettings, setupThemeDialog } from './dialogs';
import { watchBoardBounds, wireButtons } from './input';
import { connectEvents, post, restoreSession, sessionPath, setState, showError } from './session';
import { premovesOn } from './settings';
import { app, setBoard } from './state';
import { $, escapeHtml } from './util';

async function start(): Promise<void> {
  setBoard(Chessground($('board'), {
    coordinates: true,
    autoCastle: true,
    premovable: { enabled: premovesOn() },
    predroppable: { enabled: false },
    draggable: { enabled: true, showGhost: true },
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 150 },
    movable: { free: false, showDests: true, events: { after: onBoardMove } },
    drawable: { enabled: true, visible: true },
  }));
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
  setupServerSettings();

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
