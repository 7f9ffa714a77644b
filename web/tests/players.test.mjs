// Browser tests of issue 75 ("In players' hands, round two"), items 1, 3 and 4: what a user found
// in Chromium on a 1280x800 desktop and a 430x932 touch phone. Each test failed before its fix.
// Item 2 (tablebases) is in syzygy.test.mjs, item 5 (shutdown, memory budget) in server.test.mjs.
//
//   JANUS_BIN=../build/janus node --test tests/players.test.mjs     (from web/, after `npm run build`)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lib from './lib.mjs';
import { newGame, openDialog, settled, state, waitMyTurn } from './lib.mjs';

const gui = lib.guiFixture();
const { openPage } = gui;

const phoneOptions = { viewport: { width: 430, height: 932 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };

/** Pastes `text` into the Load dialog and presses Load (the dialog may stay open). */
async function pasteAndLoad(page, text, { analyse = false } = {}) {
  if (!(await page.locator('#dlg-load').isVisible())) await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', text);
  await page.setChecked('#dlg-load input[name="analyse"]', analyse);
  await page.click('#load-go');
}

/** Loads `text` and waits until the dialog closed and the server's game has `plies` moves. */
async function loadOk(page, text, plies) {
  await pasteAndLoad(page, text);
  await page.locator('#dlg-load').waitFor({ state: 'hidden' });
  await page.waitForFunction((n) => document.body.dataset.ply === String(n), plies);
  await settled(page);
}

const sanList = (st) => st.moves.map((m) => m.san).join(' ');

test('item 1: a PGN with an illegal main-line move or that does not parse is an error naming it; the game stays', async () => {
  const page = await openPage();
  await loadOk(page, '1. d4 d5 2. c4 c6 *', 4);  // White (the player) to move: no reply comes
  const before = sanList(await state(page));
  assert.equal(before, 'd4 d5 c4 c6');

  // An illegal move in the main line: named with its move number, nothing loaded.
  await page.evaluate(() => document.getElementById('toasts').replaceChildren());  // the first load's toast
  const illegal = '1. e4 e5 2. Nf3 Nc6 3. Bb5 Qxh8 4. O-O-O-O *';
  await pasteAndLoad(page, illegal);
  await page.locator('#load-error').waitFor({ state: 'visible' });
  const error = await page.textContent('#load-error');
  assert.match(error, /3\.\.\. ?Qxh8/, error);
  assert.match(error, /not (a )?legal/, error);
  assert.ok(await page.locator('#dlg-load').isVisible(), 'the dialog stays open');
  assert.equal(await page.inputValue('#dlg-load textarea'), illegal, 'the pasted text stays');
  await settled(page);
  assert.equal(sanList(await state(page)), before, 'the game on the board stays');
  assert.doesNotMatch(await page.textContent('#toasts'), /PGN loaded/);

  // Unclosed tag and unclosed comment: the parser's error names the line.
  const broken = '[Event "Casual\n[White "Ann"]\n\n1. e4 {an unclosed comment\n2. Nf3 *';
  await pasteAndLoad(page, broken);
  await page.waitForFunction(() => /line \d/.test(document.getElementById('load-error').textContent));
  assert.match(await page.textContent('#load-error'), /PGN: line 1: unterminated tag/);
  assert.ok(await page.locator('#dlg-load').isVisible());
  await settled(page);
  assert.equal(sanList(await state(page)), before);

  // A PGN whose only fault is an illegal move in a variation still loads (with a warning).
  await loadOk(page, '1. e4 e5 (1... Qxh8) 2. Nf3 Nc6 *', 4);
  assert.equal(sanList(await state(page)), 'e4 e5 Nf3 Nc6');
  assert.match(await page.textContent('#toasts'), /variations are not legal/);
  await page.close();
});

test('item 3: after a bad FEN the Load dialog stays open with the error beside the text', async () => {
  const page = await openPage();
  await loadOk(page, '1. e4 c5 *', 2);
  const bad = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1';
  await pasteAndLoad(page, bad);
  await page.locator('#load-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#load-error'), /bad FEN/);
  assert.ok(await page.locator('#dlg-load').isVisible(), 'the dialog stays open');
  assert.equal(await page.inputValue('#dlg-load textarea'), bad, 'the pasted text stays');
  await settled(page);
  assert.equal(sanList(await state(page)), 'e4 c5');
  // Corrected, it loads (into analysis mode, which the server switches to with the load).
  await pasteAndLoad(page, '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1', { analyse: true });
  await page.locator('#dlg-load').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis' && document.body.dataset.analysis === 'true');
  assert.equal((await state(page)).fen, '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1');
  await page.keyboard.press('a');
  await page.close();
});

test('item 4: the MCTS table on a 1280x800 screen shows visit counts up to 99,999,999 untruncated', async () => {
  const desktop = await lib.launchBrowser({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await lib.openPage(desktop, gui.url);
    await page.keyboard.press('a');
    await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
    await settled(page);
    await page.selectOption('#analysis-face', 'mcts');
    // The table is drawn again with every info event: measure one drawing of it, shown, in one go.
    const cells = await (await page.waitForFunction(() => {
      const box = document.getElementById('mcts-box');
      const rows = document.querySelectorAll('#mcts-table tbody tr[data-rank]');
      if (box.hidden || rows.length < 3) return null;
      const canvas = document.createElement('canvas').getContext('2d');
      return [...document.querySelectorAll('#mcts-table td.num')].map((td) => {
        const cs = getComputedStyle(td);
        canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        return {
          text: td.textContent,
          visits: td.cellIndex === 1,
          scroll: td.scrollWidth,
          client: td.clientWidth,
          room: td.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
          need: canvas.measureText('99,999,999').width,
        };
      });
    })).jsonValue();
    assert.ok(cells.length > 0);
    for (const c of cells) assert.ok(c.scroll <= c.client, `'${c.text}' is cut: ${c.scroll} px in ${c.client} px`);
    // The Visits column holds an 8-digit count.
    for (const c of cells.filter((x) => x.visits))
      assert.ok(c.room >= c.need, `the Visits column has ${c.room} px for its text; "99,999,999" needs ${c.need.toFixed(1)} px`);
    await page.selectOption('#analysis-face', 'alphabeta');
    await page.keyboard.press('a');
    await page.close();
  } finally {
    await desktop.close();
  }
});

test('item 4: phone header buttons are touch targets of at least 44 px, in one line', async () => {
  const phone = await lib.launchBrowser(phoneOptions);
  try {
    const page = await lib.openPage(phone, gui.url);
    await settled(page);
    const targets = await page.$$eval('header nav button', (bs) => bs.map((b) => ({ text: b.textContent.trim(), ...b.getBoundingClientRect().toJSON() })));
    for (const b of targets) {
      assert.ok(b.height >= 44, `header button '${b.text}' is ${b.height} px tall`);
      assert.ok(b.width >= 44, `header button '${b.text}' is ${b.width} px wide`);
    }
    const header = await page.evaluate(() => document.querySelector('header').getBoundingClientRect().height);
    assert.ok(header <= 64, `the header is ${header} px high (one line)`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    await page.close();
  } finally {
    await phone.close();
  }
});

test('item 4: on a touch phone the hint says to tap the Hint button again', async () => {
  const phone = await lib.launchBrowser(phoneOptions);
  try {
    const page = await lib.openPage(phone, gui.url);
    await settled(page);
    await page.locator('#btn-hint').tap();
    await page.waitForFunction(() => /Hint:/.test(document.getElementById('status').textContent));
    const status = await page.textContent('#status');
    assert.doesNotMatch(status, /press H/, status);
    assert.match(status, /tap Hint again to play it/, status);
    await page.locator('#btn-hint').tap();  // plays the hinted move
    await waitMyTurn(page, 2);
    await page.close();
  } finally {
    await phone.close();
  }
});

/** A new game (the player has White) one move from mate, and the mate played: Ra8#. */
async function mateOnTheBoard(page) {
  await newGame(page, { color: 'white', level: '1', fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' });
  await page.fill('#san-input', 'Ra8#');
  await page.press('#san-input', 'Enter');
  await page.waitForFunction(() => document.body.dataset.over === 'true');
  await page.locator('#san-input').blur();
  await settled(page);
}

/** The eval bar: White's share in percent and its text. */
async function evalBar(page) {
  return page.evaluate(() => {
    const bar = document.getElementById('eval-bar');
    const white = document.getElementById('eval-bar-white');
    return {
      shown: !bar.hidden,
      whitePct: (100 * white.getBoundingClientRect().height) / bar.getBoundingClientRect().height,
      text: document.getElementById('eval-bar-text').textContent,
    };
  });
}

test('item 4: at checkmate the eval bar is full to the winner and says "1-0 #", in play and in analysis', async () => {
  const page = await openPage();
  await mateOnTheBoard(page);
  await page.keyboard.press('e');
  await page.waitForFunction(() => !document.getElementById('eval-bar').hidden && /1-0/.test(document.getElementById('eval-bar-text').textContent));
  await page.waitForTimeout(400);  // the bar's height transition (0.3 s)
  let bar = await evalBar(page);
  assert.ok(bar.whitePct > 99, `White's part of the bar is ${bar.whitePct.toFixed(1)}%`);
  assert.match(bar.text, /^1-0 #$/);
  await page.keyboard.press('e');
  await page.click('#game-over-close');
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  await page.waitForTimeout(400);
  bar = await evalBar(page);
  assert.ok(bar.shown);
  assert.ok(bar.whitePct > 99, `White's part of the bar is ${bar.whitePct.toFixed(1)}%`);
  assert.match(bar.text, /^1-0 #$/);
  await page.keyboard.press('a');
  await page.close();
});

test('item 4: the game-over box closes when its Review button is pressed and stays closed', async () => {
  const page = await openPage();
  await mateOnTheBoard(page);
  assert.ok(await page.locator('#game-over').isVisible());
  await page.selectOption('#review-depth', '6');
  await page.click('#game-over-review');
  await page.locator('#game-over').waitFor({ state: 'hidden' });
  await page.waitForSelector('#review-table', { timeout: 60_000 });
  await settled(page);
  assert.ok(!(await page.locator('#game-over').isVisible()), 'the game-over box came back');
  await page.keyboard.press('a');
  await page.close();
});

test('item 4: a body over a request\'s limit names that limit (a PGN 1 MiB, other requests theirs)', async () => {
  const created = await (await fetch(new URL('/api/sessions', gui.url), { method: 'POST', headers: { 'X-Janus': '1' }, body: '{}' })).json();
  const post = async (action, body) => {
    const res = await fetch(new URL(`/api/sessions/${created.id}/${action}`, gui.url), {
      method: 'POST',
      headers: { 'X-Janus': '1', 'Content-Type': 'application/json' },
      body,
    });
    return { status: res.status, error: (await res.json()).error ?? '' };
  };
  const pgn = (bytes) => `1. e4 e5 {${'x'.repeat(bytes)}} *`;
  // 1.2 MB: within the 2 MiB a body may have, over the 1 MiB of a PGN.
  let r = await post('load', JSON.stringify({ pgn: pgn(1_200_000) }));
  assert.equal(r.status, 413, r.error);
  assert.match(r.error, /PGN.*1 MiB/, r.error);
  assert.doesNotMatch(r.error, /2 MiB/, r.error);
  // 2.5 MB: over the body limit too; the message still names the PGN's limit.
  r = await post('load', JSON.stringify({ pgn: pgn(2_500_000) }));
  assert.equal(r.status, 413, r.error);
  assert.match(r.error, /PGN.*1 MiB/, r.error);
  // A move is small: 100 kB is refused, naming the limit of that request.
  r = await post('move', JSON.stringify({ uci: 'e2e4', pad: 'x'.repeat(100_000) }));
  assert.equal(r.status, 413, r.error);
  assert.match(r.error, /64 KiB/, r.error);
  await fetch(new URL(`/api/sessions/${created.id}`, gui.url), { method: 'DELETE', headers: { 'X-Janus': '1' } });

  // In the page: the Load dialog shows the message beside the text.
  const page = await openPage();
  await pasteAndLoad(page, pgn(1_200_000));
  await page.locator('#load-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#load-error'), /PGN.*1 MiB/);
  assert.ok(await page.locator('#dlg-load').isVisible());
  await page.close();
});
