// Syzygy tablebases in the GUI: with `janus gui --syzygy-path`, analysing a position that is in
// the tables shows the tablebase result, "TB win in N" (N: distance to zeroing in plies, DTZ),
// instead of centipawns. Uses the repository's Syzygy test tables (tests/data/syzygy).

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, openDialog, openPage, shots, startServer, timeout, webDir } from './lib.mjs';

const tables = path.resolve(webDir, '..', 'tests', 'data', 'syzygy');

let server = null;
let context = null;
before(async () => {
  assert.ok(existsSync(path.join(tables, 'KRvKB.rtbw')), `Syzygy test tables missing: ${tables}`);
  server = await startServer(['--syzygy-path', tables]);
  context = await launchBrowser();
});
after(async () => {
  await context?.close();
  await server?.stop();
});

test('analysis of a tablebase position shows "TB win in N"', { timeout: 60_000 }, async () => {
  const page = await openPage(context, server.url);
  // K+R v K+B where only Rf1-c1 wins, 16 plies from zeroing (docs/tablebases.md, table row 2).
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', '1k6/8/K7/7b/8/8/8/5R2 w - - 0 1');
  await page.check('#dlg-load input[name="analyse"]');
  await page.click('#load-go');
  await page.locator('#dlg-load').waitFor({ state: 'hidden', timeout });
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis', null, { timeout });
  // Loading with "analyse" switches to analysis mode and starts the engine.
  await page.waitForFunction(() => document.body.dataset.analysis === 'true', null, { timeout });
  await page.waitForFunction(() => /TB win in 16/.test(document.querySelector('#lines li')?.textContent ?? ''), null,
                             { timeout: 3 * timeout });
  const line = await page.locator('#lines li').first().textContent();
  assert.match(line, /^TB win in 16 Rc1/);  // the only winning move leads the line
  assert.equal(await page.locator('#eval-bar-text').textContent(), 'TB win in 16');
  await page.screenshot({ path: path.join(shots, 'syzygy-analysis.png') });
  await page.click('#btn-analyse-toggle');  // stop the engine
  await page.waitForFunction(() => document.getElementById('btn-analyse-toggle').textContent === 'Start engine', null, { timeout });
});
