// Browser tests of issue 75, item 5 (the server): Ctrl-C (SIGINT) stops `janus gui` without error
// lines on stderr after the Syzygy tables were probed and MCTS analysed, and one memory budget
// (--memory-mib) holds every session's engines: the page shows it, and an MCTS analysis beyond it
// gets a 503 that says what to do.
//
//   JANUS_BIN=../build/janus node --test tests/server.test.mjs     (from web/, after `npm run build`)

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { launchBrowser, openDialog, openPage, settled, startServer, webDir } from './lib.mjs';

const tables = process.env.JANUS_TEST_SYZYGY ?? path.resolve(webDir, '..', 'tests', 'data', 'syzygy');
const haveTables = existsSync(path.join(tables, 'KPvK.rtbw'));

/** Analysis mode with `face` on the page's position; waits for its first lines or table rows. */
async function analyse(page, face) {
  await page.selectOption('#analysis-face', face).catch(() => {});
  if ((await page.evaluate(() => document.body.dataset.mode)) !== 'analysis') await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  await settled(page);
  await page.selectOption('#analysis-face', face);
  await settled(page);
}

test('item 5: Ctrl-C stops the server with no error lines, after tablebase probes and MCTS analysis', { timeout: 120_000 }, async () => {
  assert.ok(haveTables, `Syzygy test tables missing in ${tables}`);
  const server = await startServer(['--syzygy-path', tables], { captureStderr: true });
  const context = await launchBrowser();
  try {
    const page = await openPage(context, server.url);
    await openDialog(page, 'l', 'dlg-load');
    await page.fill('#dlg-load textarea', '4k3/8/4K3/4P3/8/8/8/8 w - - 0 1');  // K+P v K: in the 3-4 piece tables
    await page.check('#dlg-load input[name="analyse"]');
    await page.click('#load-go');
    await page.waitForFunction(() => document.querySelectorAll('#lines li').length > 0);
    await page.waitForFunction(() => /^TB /.test(document.querySelector('#lines li').textContent));
    await analyse(page, 'mcts');
    await page.waitForFunction(() => document.querySelectorAll('#mcts-table tbody tr[data-rank]').length >= 1);
    await analyse(page, 'alphabeta');
  } finally {
    await context.close();
  }
  const { code, signal, stdout, stderr } = await server.stop('SIGINT');
  assert.equal(signal, null, `killed by ${signal}`);
  assert.equal(code, 0);
  assert.match(stdout, /Janus GUI stopped\.\s*$/);
  assert.equal(stderr.trim(), '', `stderr after Ctrl-C:\n${stderr}`);
});

test('item 5: one memory budget for all sessions: shown in the page, and an MCTS analysis beyond it gets a clear 503', { timeout: 120_000 }, async () => {
  // Two tabs; the budget holds both sessions and one MCTS search with its smallest tree, not two
  // (docs/gui.md "Memory budget": the server 48 MiB, a session --hash + 18 = 34 MiB, an MCTS search
  // 40 + 20 (cache) + 10 (an 8 MiB tree) = 70 MiB): 48 + 2 x 34 + 70 = 186 <= 230 < 256.
  const server = await startServer(['--memory-mib', '230', '--max-sessions', '2', '--hash', '16', '--mcts-tree', '64']);
  const context = await launchBrowser();
  try {
    const info = await (await fetch(new URL('/api/info', server.url))).json();
    assert.equal(info.memory.budgetMiB, 230);
    const one = await openPage(context, server.url);
    const two = await openPage(context, server.url);
    await openDialog(one, 'c', 'dlg-theme');  // the dialog asks the server again when it opens
    await one.waitForFunction(() => /by 2 sessions/.test(document.getElementById('memory-status').textContent));
    assert.match(await one.textContent('#memory-status'), /Memory budget: 230 MiB \(--memory-mib\)/);
    assert.match(await one.textContent('#memory-status'), /in use: \d+ MiB by 2 sessions/);
    await one.keyboard.press('Escape');

    await analyse(one, 'mcts');
    await one.waitForFunction(() => document.querySelectorAll('#mcts-table tbody tr[data-rank]').length >= 1);
    const granted = (await (await fetch(new URL('/api/info', server.url))).json()).memory;
    assert.ok(granted.usedMiB <= 230, JSON.stringify(granted));
    assert.equal(granted.mctsTrees, 1);

    // The second tab's MCTS analysis does not fit: a 503 whose message names the budget.
    await two.keyboard.press('a');
    await two.waitForFunction(() => document.body.dataset.mode === 'analysis');
    await settled(two);
    const answer = await two.evaluate(async () => {
      const id = sessionStorage.getItem('janus.session');
      const res = await fetch(`/api/sessions/${id}/analysis`, {
        method: 'POST',
        headers: { 'X-Janus': '1', 'Content-Type': 'application/json' },
        body: JSON.stringify({ on: true, face: 'mcts' }),
      });
      return { status: res.status, error: (await res.json()).error };
    });
    assert.equal(answer.status, 503, JSON.stringify(answer));
    assert.match(answer.error, /memory budget of 230 MiB \(--memory-mib\)/, answer.error);
    // The page shows it when the player picks MCTS.
    await two.selectOption('#analysis-face', 'mcts');
    await two.waitForFunction(() => /memory budget/.test(document.getElementById('toasts').textContent));

    // When the first tab stops its MCTS analysis and goes away, its memory serves the second.
    await one.close();
    await two.waitForTimeout(1500);
    await two.selectOption('#analysis-face', 'alphabeta');
    await settled(two);
    await two.selectOption('#analysis-face', 'mcts');
    await two.waitForFunction(() => document.querySelectorAll('#mcts-table tbody tr[data-rank]').length >= 1, null, { timeout: 30_000 });
    await two.keyboard.press('a');
    await two.close();
  } finally {
    await context.close();
    await server.stop();
  }
});
