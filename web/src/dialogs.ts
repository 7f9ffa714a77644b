// The dialogs: new game (face, strength, clock, start position), load (FEN or PGN, a game of
// several, into analysis), theme and settings, and the keyboard-shortcut help.

import type { ServerInfo, State } from './api';
import { redrawBoard, render } from './render';
import { ApiError, api } from './api';
import type { MemoryBudget, Tablebases } from './api';
import { call, post, request, restoreSession, sessionLost, setState } from './session';
import { analysisOptions, applyAppearance, kPieceSets, kThemes, premovesOn, soundsOn } from './settings';
import { app, cg } from './state';
import { gameSummary, pgnGames, treeFromGame } from './tree';
import type { MoveTree } from './tree';
import { $, escapeHtml, toast } from './util';

export function setupNewGameDialog(info: ServerInfo): void {
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

export function setupLoadDialog(): void {
  const dlg = $<HTMLDialogElement>('dlg-load');
  const form = $<HTMLFormElement>('form-load');
  const error = $('load-error');
  const pick = $('load-pick');
  const select = $<HTMLSelectElement>('load-game');
  const go = $<HTMLButtonElement>('load-go');
  const text = () => String(new FormData(form).get('text') ?? '').trim();
  const isPgn = (t: string) => /\[|\d+\.\s*\S/.test(t);
  // The games of the text in the box (chessops's parser), kept while the text stays the same.
  let parsed: { text: string; games: ReturnType<typeof pgnGames> } | null = null;
  const games = (t: string) => {
    if (parsed?.text !== t) parsed = { text: t, games: isPgn(t) ? pgnGames(t) : [] };
    return parsed.games;
  };
  /** Shows what is wrong beside the text; the dialog stays open with the text as it was. */
  const fail = (message: string) => {
    error.textContent = message;
    error.hidden = false;
  };
  const load = async () => {
    const t = text();
    if (!t) return fail('Nothing to load: paste a FEN or a PGN into the box.');
    const found = games(t);
    if (found.length > 1 && pick.hidden) {
      // Several games (as chessops reads it, leniently): the server reads the text strictly, and
      // its list, or the first fault it finds, is what the player sees.
      go.disabled = true;
      let listed: { tags: Record<string, string>; plies: number }[];
      try {
        listed = (await api<{ games: { tags: Record<string, string>; plies: number }[] }>('POST', '/api/pgn/games', { pgn: t })).games;
      } catch (e) {
        return fail(e instanceof ApiError ? e.message : String(e));
      } finally {
        go.disabled = false;
      }
      if (listed.length > 1) {
        select.innerHTML = listed
          .map((g, i) => `<option value="${i}">${escapeHtml(gameSummary(new Map(Object.entries(g.tags)), g.plies, i))}</option>`)
          .join('');
        pick.hidden = false;
        return fail(`This PGN has ${listed.length} games: pick one and press Load.`);
      }
    }
    const chosen = pick.hidden ? 0 : Number(select.value) || 0;
    const pgn = isPgn(t);
    // A PGN's game as a move tree (variations, comments, NAGs), checked here: an illegal move of
    // its main line is an error. The server gets the text itself and the game's number, so that
    // its stricter reader names what does not parse (an unclosed tag or comment) by its line.
    let tree: MoveTree | null = null;
    let skipped = 0;
    const game = pgn ? found[chosen] : undefined;
    if (game) {
      const built = treeFromGame(game);
      if (typeof built === 'string') return fail(built);
      tree = built.tree;
      skipped = built.skipped;
    }
    const bytes = new TextEncoder().encode(t).length;
    if (pgn && app.info && bytes > app.info.maxPgnBytes)
      return fail(`PGN too large (${(bytes / 1048576).toFixed(1)} MiB): a PGN to load may have at most ${app.info.maxPgnBytes / 1048576} MiB`);
    // Into analysis mode with the load itself: loaded in play mode, a game with Janus to move
    // would get Janus's reply first; and a refused load changes nothing, the mode included.
    const analyse = !!new FormData(form).get('analyse');
    const body: Record<string, unknown> = pgn ? { pgn: t, game: chosen } : { fen: t };
    if (analyse) body.mode = 'analysis';
    go.disabled = true;
    let st: State;
    try {
      st = await request<State>('load', body);
    } catch (e) {
      if (sessionLost(e)) {
        await restoreSession();
        return fail('The server had lost this tab\'s session (a restart?); press Load again.');
      }
      return fail(e instanceof ApiError ? e.message : String(e));
    } finally {
      go.disabled = false;
    }
    dlg.close('load');
    app.lines.clear();
    app.liveEvals.clear();
    app.tree = tree;  // null: a line of its own (setState builds it)
    setState(st);
    if (analyse) await post('analysis', { on: true, ...analysisOptions() });
    if (skipped) toast(`${skipped} move(s) of the PGN's variations are not legal and were left out.`, 'error');
    toast(pgn ? 'PGN loaded' : 'FEN loaded');
  };
  form.addEventListener('submit', (e) => {
    if ((e.submitter as HTMLButtonElement | null)?.value !== 'load') return;  // Cancel closes
    e.preventDefault();  // the dialog closes only once the server has taken the game
    if (!go.disabled) void load();
  });
  form.addEventListener('input', (e) => {
    if (e.target === select) return;
    error.hidden = true;
    pick.hidden = true;
  });
  dlg.addEventListener('close', () => {
    error.hidden = true;
    pick.hidden = true;
  });
}

export function setupThemeDialog(): void {
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
    redrawBoard();
  });
  const sounds = $<HTMLInputElement>('sounds');
  sounds.checked = soundsOn();
  sounds.addEventListener('change', () => localStorage.setItem('janus.sounds', String(sounds.checked)));
  build('theme-choices', 'theme', kThemes, theme);
  build('piece-choices', 'pieces', kPieceSets, pieces);
  applyAppearance(theme, pieces);
}

/** "Syzygy: 35 WDL and 35 DTZ tables, up to 4 pieces" / "off" / why Fathom is missing. */
function showTablebases(tb: Tablebases): void {
  const status = $('syzygy-status');
  const path = $<HTMLInputElement>('syzygy-path');
  const apply = $<HTMLButtonElement>('syzygy-apply');
  status.classList.remove('error');
  path.disabled = apply.disabled = !tb.fathom.available;
  if (!tb.fathom.available) {
    status.classList.add('error');
    status.textContent =
      'The Fathom library that reads Syzygy tables is not available, so tablebases are off. ' +
      `Install it: apt-get install libfathom1 (${tb.fathom.error ?? 'not found'}).`;
    return;
  }
  const s = tb.syzygy;
  status.textContent = s.maxPieces
    ? `In use: ${s.wdl} WDL and ${s.dtz} DTZ tables, up to ${s.maxPieces} pieces.` +
      (s.problems.length ? ` Left out: ${s.problems.join('; ')}.` : '')
    : 'No tables: positions are searched without them.';
  if (document.activeElement !== path) path.value = s.path;
}

/** "Memory budget: 2048 MiB (--memory-mib); in use: 312 MiB by 3 sessions, 1 MCTS tree". */
function showMemory(m: MemoryBudget): void {
  const trees = `${m.mctsTrees} MCTS tree${m.mctsTrees === 1 ? '' : 's'}`;
  $('memory-status').textContent =
    `Memory budget: ${m.budgetMiB} MiB (--memory-mib); in use: ${m.usedMiB} MiB by ${m.sessions} session${m.sessions === 1 ? '' : 's'}, ${trees}. ` +
    `A session takes ${m.sessionMiB} MiB; an MCTS search up to ${m.treeMiB} MiB of tree, less when the budget is short.`;
}

/**
 * The settings dialog's server part: the Syzygy tables' folder (validated by the server: POST
 * /api/tablebases; the tables serve every tab) and the memory budget. Refreshed from /api/info
 * whenever the dialog opens.
 */
export function setupServerSettings(): void {
  const dlg = $<HTMLDialogElement>('dlg-theme');
  const path = $<HTMLInputElement>('syzygy-path');
  const status = $('syzygy-status');
  const apply = async () => {
    status.classList.remove('error');
    status.textContent = 'Checking the folder…';
    try {
      const tb = await api<Tablebases>('POST', '/api/tablebases', { syzygyPath: path.value.trim() });
      showTablebases(tb);
      if (app.info) app.info.tablebases = tb;
    } catch (e) {
      status.classList.add('error');
      status.textContent = e instanceof ApiError ? e.message : String(e);
    }
    status.dataset.applied = String(Number(status.dataset.applied ?? '0') + 1);  // answers so far (for the tests)
  };
  $('syzygy-apply').addEventListener('click', () => void apply());
  path.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();  // Enter would submit (close) the dialog
    void apply();
  });
  dlg.addEventListener('janus-open', async () => {
    try {
      const info = await api<ServerInfo>('GET', '/api/info');
      showTablebases(info.tablebases);
      if (info.memory) showMemory(info.memory);
    } catch (e) {
      status.textContent = String(e);
    }
  });
  if (app.info) {
    showTablebases(app.info.tablebases);
    if (app.info.memory) showMemory(app.info.memory);
  }
}

const kShortcuts: [string, string][] = [
  ['N', 'New game'],
  ['U', 'Undo / take back'],
  ['H', 'Hint (press again: the engine plays it)'],
  ['E', 'Evaluation: eval bar, score, hand-crafted terms'],
  ['F', 'Flip board'],
  ['C', 'Settings: board theme, pieces, sounds, tablebases, memory'],
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

export function setupHelp(): void {
  $('help-table').innerHTML = kShortcuts.map(([k, v]) => `<tr><td><kbd>${k}</kbd></td><td>${v}</td></tr>`).join('');
}
