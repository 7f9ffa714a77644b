// Syzygy tablebases in the GUI (issue 75, item 2): the settings dialog sets the tables' folder,
// validated by the server (how many tables, the largest piece count, or what is wrong); a position
// in the tables shows one display of its result in every mode, "TB win · DTZ n" (win/draw/loss for
// White, n: plies to the zeroing move) with " · #m" where the search knows the mate; without the
// Fathom library the dialog says so.
//
// Tables: the 3-4 piece Syzygy tables of the repository, ../tests/data/syzygy (JANUS_TEST_SYZYGY
// overrides the folder); a missing table fails the tests.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, openDialog, openPage, settled, shots, startServer, state, timeout, webDir } from './lib.mjs';

const tables = process.env.JANUS_TEST_SYZYGY ?? path.resolve(webDir, '..', 'tests', 'data', 'syzygy');
const haveTables = ['KPvK', 'KRvK', 'KRvKB'].every((t) => existsSync(path.join(tables, `${t}.rtbw`)) && existsSync(path.join(tables, `${t}.rtbz`)));

let server = null;
let context = null;
before(async () => {
  assert.ok(haveTables, `Syzygy test tables (KPvK, KRvK, KRvKB) missing in ${tables}`);
  server = await startServer();  // no --syzygy-path: the page sets the folder
  context = await launchBrowser();
});
after(async () => {
  await context?.close();
  await server?.stop();
});

/** Sets the Syzygy folder in the settings dialog (C) and returns the status line it shows. */
async function setSyzygyPath(page, folder) {
  await openDialog(page, 'c', 'dlg-theme');
  await page.fill('#syzygy-path', folder);
  const answers = await page.evaluate(() => Number(document.getElementById('syzygy-status').dataset.applied ?? '0'));
  await page.click('#syzygy-apply');
  await page.waitForFunction((n) => Number(document.getElementById('syzygy-status').dataset.applied ?? '0') > n, answers);
  return page.textContent('#syzygy-status');
}

/** Loads a FEN through the Load dialog, optionally into analysis mode. */
async function loadFen(page, fen, analyse) {
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', fen);
  await page.setChecked('#dlg-load input[name="analyse"]', analyse);
  await page.click('#load-go');
  await page.locator('#dlg-load').waitFor({ state: 'hidden', timeout });
  await page.waitForFunction((f) => document.getElementById('fen').value === f, fen);
  await settled(page);
}

const firstLine = (page) => page.locator('#lines li').first().textContent();

test('item 2: the settings dialog sets the Syzygy folder, validated by the server', { timeout: 60_000 }, async () => {
  const page = await openPage(context, server.url);
  const info = await (await fetch(new URL('/api/info', server.url))).json();
  assert.equal(info.tablebases.fathom.available, true, JSON.stringify(info.tablebases));
  assert.equal(info.tablebases.syzygy.maxPieces, 0);

  // A folder that does not exist: the server's error, and nothing changes.
  let status = await setSyzygyPath(page, '/nonexistent/syzygy');
  assert.match(status, /'\/nonexistent\/syzygy' is not a directory \(it does not exist\)/, status);
  assert.ok(await page.locator('#syzygy-status.error').isVisible());
  // A folder without tables.
  status = await setSyzygyPath(page, webDir);
  assert.match(status, /no usable WDL table/, status);

  // The tables: how many, and the largest piece count.
  status = await setSyzygyPath(page, tables);
  assert.match(status, /\d+ WDL and \d+ DTZ tables, up to 4 pieces/, status);
  const now = (await (await fetch(new URL('/api/info', server.url))).json()).tablebases.syzygy;
  assert.equal(now.maxPieces, 4);
  assert.equal(now.path, tables);
  assert.ok(now.wdl >= 3 && now.dtz >= 3, JSON.stringify(now));
  // The dialog shows the folder in use when it opens again.
  await page.keyboard.press('Escape');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await openDialog(page, 'c', 'dlg-theme');
  assert.equal(await page.inputValue('#syzygy-path'), tables);
  assert.match(await page.textContent('#syzygy-status'), /up to 4 pieces/);
  await page.keyboard.press('Escape');
  await page.close();
});

test('item 2: one display of a tablebase result in play (hint, eval bar) and analysis (lines, bar): KPvK and KRvK', { timeout: 120_000 }, async () => {
  const page = await openPage(context, server.url);
  await setSyzygyPath(page, tables);
  await page.keyboard.press('Escape');

  // K+P v K, White to move wins (Kd6 keeps the opposition); play mode: the hint and the E bar.
  const kpk = '4k3/8/4K3/4P3/8/8/8/8 w - - 0 1';
  await loadFen(page, kpk, false);
  await page.keyboard.press('h');
  await page.waitForFunction(() => /Hint:/.test(document.getElementById('status').textContent));
  const hint = await page.textContent('#status');
  const played = hint.match(/Hint: (\S+) \((TB win · DTZ \d+)(?: · #\d+)?\)/);
  assert.ok(played, hint);
  const label = played[2];
  await page.keyboard.press('e');
  await page.waitForFunction(() => /^TB /.test(document.getElementById('eval-bar-text').textContent));
  assert.ok((await page.textContent('#eval-bar-text')).startsWith(label), await page.textContent('#eval-bar-text'));
  assert.ok((await page.textContent('#eval-score')).startsWith(label), await page.textContent('#eval-score'));
  await page.keyboard.press('e');

  // Analysis of the same position: the same label, with the mate distance once the search has it.
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.analysis === 'true');
  await page.waitForFunction(() => /^TB win · DTZ \d+ · #\d+/.test(document.querySelector('#lines li')?.textContent ?? ''), null, { timeout: 60_000 });
  const line = await firstLine(page);
  assert.ok(line.startsWith(label), `play mode said '${label}', analysis says '${line}'`);
  assert.ok((await page.textContent('#eval-bar-text')).startsWith(label));
  await page.screenshot({ path: path.join(shots, 'syzygy-kpk-analysis.png') });

  // K+R v K: the tables' result, not only the mate score.
  await loadFen(page, '8/8/8/8/8/2k5/8/K6R w - - 0 1', true);
  await page.waitForFunction(() => /^TB win · DTZ \d+/.test(document.querySelector('#lines li')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await page.textContent('#eval-bar-text'), /^TB win · DTZ \d+/);
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.mode === 'play');
  await page.keyboard.press('h');
  await page.waitForFunction(() => /Hint:/.test(document.getElementById('status').textContent));
  assert.match(await page.textContent('#status'), /\(TB win · DTZ \d+/);

  // K+R v K+B where only Rf1-c1 wins, 16 plies from zeroing (docs/tablebases.md, table row 2).
  await loadFen(page, '1k6/8/K7/7b/8/8/8/5R2 w - - 0 1', true);
  await page.waitForFunction(() => /^TB win · DTZ 16/.test(document.querySelector('#lines li')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await firstLine(page), /^TB win · DTZ 16( · #\d+)? Rc1/);
  assert.match(await page.locator('#eval-bar-text').textContent(), /^TB win · DTZ 16/);
  await page.screenshot({ path: path.join(shots, 'syzygy-analysis.png') });
  await page.click('#btn-analyse-toggle');  // stop the engine
  await page.waitForFunction(() => document.getElementById('btn-analyse-toggle').textContent === 'Start engine', null, { timeout });
  assert.equal((await state(page)).analysis.on, false);
  await page.close();
});

test('item 2: without the Fathom library the settings dialog says so', { timeout: 60_000 }, async () => {
  const bare = await startServer([], { env: { JANUS_FATHOM: '/nonexistent/libfathom.so.1' } });
  try {
    const info = await (await fetch(new URL('/api/info', bare.url))).json();
    assert.equal(info.tablebases.fathom.available, false);
    assert.match(info.tablebases.fathom.error, /libfathom1/);
    const page = await openPage(context ?? (context = await launchBrowser()), bare.url);
    await openDialog(page, 'c', 'dlg-theme');
    assert.match(await page.textContent('#syzygy-status'), /Fathom library .*not available.*apt-get install libfathom1/s);
    assert.ok(await page.locator('#syzygy-path').isDisabled());
    assert.ok(await page.locator('#syzygy-apply').isDisabled());
    // The server refuses a path as well, naming the library.
    const res = await fetch(new URL('/api/tablebases', bare.url), {
      method: 'POST',
      headers: { 'X-Janus': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ syzygyPath: tables }),
    });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, /cannot load Fathom/);
    await page.close();
  } finally {
    await bare.stop();
  }
});
