// Shared set-up of the browser tests: `janus gui` on an ephemeral port, Debian's Chromium driven
// headless by playwright-core, and helpers that act on the page as a player does.
//
// Environment: JANUS_BIN (default ../build/janus), CHROMIUM (default /usr/bin/chromium),
// JANUS_SCREENSHOTS (default web/screenshots), JANUS_TEST_WEB_DIR (default web/dist; "-" passes no
// --web-dir, so that the binary finds its page by itself, as an installed janus does).

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const webDir = path.resolve(here, '..');
export const janusBin = path.resolve(webDir, process.env.JANUS_BIN ?? '../build/janus');
export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const shots = path.resolve(webDir, process.env.JANUS_SCREENSHOTS ?? 'screenshots');
export const timeout = 20_000;

/**
 * Starts `janus gui --port 0` with a fresh data folder; resolves to { url, webPage, dataDir, pid,
 * stderr(), stop(signal) } once it printed its URL (webPage: the "Web page: DIR (how found)" it
 * printed before). `extraArgs` go after the standard ones. Options: `env` (added to the
 * environment), `captureStderr` (keep the server's stderr for stderr() instead of passing it
 * through). stop(signal = 'SIGTERM') sends the signal, waits for the exit and resolves to
 * { code, signal, stdout, stderr }.
 */
export async function startServer(extraArgs = [], { env = {}, captureStderr = false } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'janus-gui-data-'));
  mkdirSync(shots, { recursive: true });
  const web = process.env.JANUS_TEST_WEB_DIR ?? path.join(webDir, 'dist');
  const args = ['gui', '--port', '0', '--no-browser', '--debug-endpoints', '--data-dir', dataDir];
  if (web !== '-') args.push('--web-dir', web);
  const server = spawn(janusBin, [...args, ...extraArgs], {
    stdio: ['ignore', 'pipe', captureStderr ? 'pipe' : 'inherit'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  server.stderr?.on('data', (d) => (err += d));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`janus gui printed no URL: ${out}`)), 15_000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/Janus GUI: (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`janus gui exited (${code}): ${out}${err}`)));
  });
  return {
    url,
    webPage: out.match(/Web page: (.*)/)?.[1] ?? '',
    dataDir,
    pid: server.pid,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      let result = { code: server.exitCode, signal: server.signalCode, stdout: out, stderr: err };
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.on('exit', (code, sig) => resolve({ code, signal: sig })));
        server.kill(signal);
        const { code, signal: sig } = await exited;
        result = { code, signal: sig, stdout: out, stderr: err };
      }
      rmSync(dataDir, { recursive: true, force: true });
      return result;
    },
  };
}

/**
 * A Chromium with a fresh profile (persistent context: the flags keep it off the network).
 * `options`: playwright context options, e.g. { viewport, hasTouch, isMobile }.
 */
export async function launchBrowser(options = {}) {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'janus-gui-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
    viewport: { width: 1360, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
    ...options,
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return context;
}

/** Opens the GUI in a new tab of `context` and waits until it is ready; `initScript` (a function)
 * runs in the page before its own scripts (Playwright addInitScript). */
export async function openPage(context, url, { initScript } = {}) {
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  page.on('pageerror', (e) => console.error('page error:', e));
  if (initScript) await page.addInitScript(initScript);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

/**
 * The fixture every browser-test file shares: node:test hooks that start `janus gui` (startServer)
 * and one Chromium context (launchBrowser) before the file's tests and stop both after them.
 * Returns { url, dataDir, context } (filled in by the before hook) and openPage(options), which
 * opens the GUI in a new tab of that context (see openPage below).
 */
export function guiFixture() {
  let server = null;
  const gui = {
    url: '',
    dataDir: '',
    context: null,
    openPage: (options) => openPage(gui.context, gui.url, options),
  };
  before(async () => {
    server = await startServer();
    gui.url = server.url;
    gui.dataDir = server.dataDir;
    gui.context = await launchBrowser();
  });
  after(async () => {
    await gui.context?.close();
    await server?.stop();
  });
  return gui;
}

/** The centre of square `sq` ("e2") on the screen, from the board's current position. */
export async function squareCenter(page, sq) {
  const box = await page.locator('#board cg-board').boundingBox();
  const orientation = await page.evaluate(() => document.body.dataset.orientation);
  const file = sq.charCodeAt(0) - 97;
  const rank = Number(sq[1]) - 1;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

export async function clickSquare(page, sq) {
  const p = await squareCenter(page, sq);
  await page.mouse.click(p.x, p.y);
}

/** A finger tap on square `sq` (the context needs hasTouch). */
export async function tapSquare(page, sq) {
  const p = await squareCenter(page, sq);
  await page.touchscreen.tap(p.x, p.y);
}

export async function drag(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 10 });
  await page.mouse.up();
}

/** Waits until the page shows the player to move (engine answered) at `ply` plies. */
export async function waitMyTurn(page, ply) {
  await page.waitForFunction(
    (p) => {
      const d = document.body.dataset;
      return (p === undefined || d.ply === String(p)) && d.thinking === 'false' && (d.over === 'true' || d.turn === document.body.dataset.human);
    },
    ply,
  );
}

/** The session's state as the server has it. */
export async function state(page) {
  return page.evaluate(async () => {
    const id = sessionStorage.getItem('janus.session');
    return (await fetch(`/api/sessions/${id}`)).json();
  });
}

export async function sans(page) {
  return page.locator('#moves .move').allTextContents();
}

/** Waits until every request the page made has been answered. */
export async function settled(page) {
  await page.waitForFunction(() => (document.body.dataset.inflight ?? '0') === '0');
}

/** Opens a dialog with its key and waits for it. */
export async function openDialog(page, key, id) {
  await page.keyboard.press(key);
  await page.locator(`#${id}`).waitFor({ state: 'visible' });
}

export async function closeDialog(page, id) {
  await page.keyboard.press('Escape');
  await page.locator(`#${id}`).waitFor({ state: 'hidden' });
}

/**
 * New game (N) and waits until the page shows it. Strength: { level } or { moveTimeMs } against
 * alpha-beta (the first alpha-beta face the build has, unless `face` names one), or
 * { face: 'mcts', playouts } against MCTS.
 */
export async function newGame(page, { color = 'white', level = '1', moveTimeMs = 0, fen = '', face = '', playouts = 0 } = {}) {
  const before = Number(await page.evaluate(() => document.body.dataset.version ?? '0'));
  await openDialog(page, 'n', 'dlg-new');
  await page.check(`#dlg-new input[name="color"][value="${color}"]`);
  // The dialog remembers the last face: choose one every time.
  face ||= await page.locator('#face-select option:not([disabled])').first().getAttribute('value');
  await page.selectOption('#face-select', face);
  if (face === 'mcts') {
    await page.check('#mcts-strength-playouts');
    await page.fill('#mcts-playouts', String(playouts || 100));
  } else if (moveTimeMs) {
    await page.check('#strength-time');
    await page.fill('#dlg-new input[name="moveTimeMs"]', String(moveTimeMs));
  } else {
    await page.check('#strength-level');
    await page.selectOption('#level-select', level);
  }
  await page.fill('#dlg-new input[name="fen"]', fen);
  await page.click('#new-start');
  await page.locator('#dlg-new').waitFor({ state: 'hidden' });
  await page.waitForFunction((v) => Number(document.body.dataset.version) > v, before);
  await settled(page);
}

/** Number of arrows (lines) chessground draws on the board. */
export async function arrowCount(page) {
  return page.locator('#board svg.cg-shapes line').count();
}
