// Browser tests of the GUI defects found in a walkthrough on Chromium (issue 15, section 2). Each
// test failed on the page and server before its fix. The phone tests run in a touch-screen context
// of 430x932 CSS pixels. Screenshots: 06-phone-start.png, 07-phone-game.png.
//
//   JANUS_BIN=../build/janus npm test          (from web/, after `npm run build`; see lib.mjs)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as lib from './lib.mjs';
import { arrowCount, openDialog, sans, settled, shots, state, tapSquare, waitMyTurn } from './lib.mjs';

const gui = lib.guiFixture();
const { openPage } = gui;

async function info() {
  return (await fetch(new URL('/api/info', gui.url))).json();
}

/** WCAG contrast ratio of two sRGB colours given as [r, g, b] in 0..255. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('phone 430x932: a tap selects the tapped square after the layout settles; compact header, no overflow, no key hints', async () => {
  const phone = await lib.launchBrowser({ viewport: { width: 430, height: 932 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });
  try {
    const page = await lib.openPage(phone, gui.url);
    await settled(page);
    await page.screenshot({ path: path.join(shots, '06-phone-start.png') });
    // The page loads with a game in which the player has White: tap e2 (two destinations: e3, e4).
    // With stale board bounds the tap lands on e1 (the king: no destinations).
    await tapSquare(page, 'e2');
    await page.waitForFunction(() => document.querySelectorAll('cg-board square.move-dest').length === 2, undefined, { timeout: 3000 });
    await tapSquare(page, 'e4');
    await waitMyTurn(page, 2);
    assert.equal((await sans(page))[0], 'e4');

    const layout = await page.evaluate(() => ({
      header: document.querySelector('header').getBoundingClientRect().height,
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      coordsRight: Math.max(...[...document.querySelectorAll('#board coords coord')].map((c) => c.getBoundingClientRect().right)),
      boardRight: document.querySelector('#board cg-board').getBoundingClientRect().right,
      hints: [...document.querySelectorAll('button kbd, summary kbd')].filter((k) => k.getClientRects().length > 0).length,
    }));
    assert.ok(layout.header <= 64, `header is ${layout.header} px high`);
    assert.ok(layout.scrollWidth <= layout.innerWidth, `page is ${layout.scrollWidth} px wide on a ${layout.innerWidth} px screen`);
    assert.ok(layout.coordsRight <= layout.innerWidth, `a board coordinate ends at ${layout.coordsRight} px`);
    assert.ok(layout.boardRight <= layout.innerWidth, `the board ends at ${layout.boardRight} px`);
    assert.equal(layout.hints, 0, 'key hints are shown on a touch screen');
    await page.screenshot({ path: path.join(shots, '07-phone-game.png') });
  } finally {
    await phone.close();
  }
});

test('one default strength: /api/info, the page and the New game dialog agree; choosing a level plays that level', async () => {
  const i = await info();
  assert.ok(i.elo, 'the engine declares UCI_Elo');
  assert.equal(typeof i.elo.default, 'number');
  assert.equal(i.defaults.strength, 'elo');
  assert.equal(i.defaults.elo, i.elo.default);
  const page = await openPage();
  const st = await state(page);
  assert.equal(st.elo, i.elo.default);
  assert.match(await page.textContent('#player-top .name'), new RegExp(`Elo ${i.elo.default}`));
  await openDialog(page, 'n', 'dlg-new');
  assert.ok(await page.isChecked('#strength-elo'));
  assert.equal(await page.inputValue('#elo-range'), String(i.elo.default));
  assert.equal(await page.inputValue('#level-select'), String(i.defaults.level));

  // Picking a level in its menu selects the Level option: the game is played at that level.
  await page.selectOption('#level-select', '2');
  assert.ok(await page.isChecked('#strength-level'));
  await page.click('#new-start');
  await page.locator('#dlg-new').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => /level 2/.test(document.querySelector('#player-top .name').textContent));
  await settled(page);
  const after = await state(page);
  assert.equal(after.level, 2);
  assert.equal(after.elo, null);
  // Likewise typing a time per move selects that option.
  await openDialog(page, 'n', 'dlg-new');
  await page.fill('#dlg-new input[name="moveTimeMs"]', '300');
  assert.ok(await page.isChecked('#strength-time'));
  await page.keyboard.press('Escape');
  await page.close();
});

test('analysis runs as many lines as the Lines menu shows, and keeps the choice', async () => {
  const i = await info();
  const page = await openPage();
  const lines = (n) => page.waitForFunction((k) => document.querySelectorAll('#lines li').length === k, n);
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.analysis === 'true');
  assert.equal(await page.inputValue('#multipv'), String(i.defaults.multiPv));
  await lines(i.defaults.multiPv);
  assert.equal((await state(page)).analysis.multiPv, i.defaults.multiPv);
  await page.selectOption('#multipv', '2');
  await lines(2);
  // Leave analysis mode and come back: still two lines, and the menu says so.
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.mode === 'play');
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis' && document.body.dataset.analysis === 'true');
  assert.equal(await page.inputValue('#multipv'), '2');
  await lines(2);
  assert.equal((await state(page)).analysis.multiPv, 2);
  await page.keyboard.press('a');
  await page.close();
});

test('board coordinates are legible: at least 11 px and 4.5:1 contrast on both square colours', async () => {
  const page = await openPage();
  // The default brown board: light #f0d9b5, dark #b58863 (chessground's brown theme).
  const light = [0xf0, 0xd9, 0xb5];
  const dark = [0xb5, 0x88, 0x63];
  const coords = await page.evaluate(() => {
    const board = document.querySelector('#board cg-board').getBoundingClientRect();
    return [...document.querySelectorAll('#board coords coord')].map((el) => {
      let opacity = 1;
      for (let e = el; e && e.id !== 'board'; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return {
        text: el.textContent,
        size: parseFloat(cs.fontSize),
        color: cs.color.match(/[\d.]+/g).map(Number),
        opacity,
        col: Math.min(7, Math.max(0, Math.floor(((r.left + r.right) / 2 - board.left) / (board.width / 8)))),
        row: Math.min(7, Math.max(0, Math.floor(((r.top + r.bottom) / 2 - board.top) / (board.height / 8)))),
      };
    });
  });
  assert.equal(coords.length, 16);
  for (const c of coords) {
    assert.ok(c.size >= 11, `coordinate ${c.text} is ${c.size} px`);
    const square = (c.row + c.col) % 2 === 0 ? light : dark;
    const alpha = (c.color[3] ?? 1) * c.opacity;
    const shown = c.color.slice(0, 3).map((v, k) => v * alpha + square[k] * (1 - alpha));
    const ratio = contrast(shown, square);
    assert.ok(ratio >= 4.5, `coordinate ${c.text} has contrast ${ratio.toFixed(2)} on its square`);
  }
  await page.close();
});

test('after a review no analysis arrows stay; an empty or oversized Load says what is wrong', async () => {
  const i = await info();
  const page = await openPage();
  // Analysis of a loaded game draws arrows for its lines.
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *');
  await page.check('#dlg-load input[name="analyse"]');
  await page.click('#load-go');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis' && document.querySelectorAll('#lines li').length > 0);
  await page.waitForFunction(() => document.querySelectorAll('#board svg.cg-shapes line').length > 0);
  // The review stops the analysis: its lines and their arrows go.
  await page.selectOption('#review-depth', '6');
  await page.keyboard.press('r');
  await page.waitForSelector('#review-table', { timeout: 60_000 });
  assert.equal(await page.locator('#lines li').count(), 0);
  assert.equal(await arrowCount(page), 0);

  // Load with nothing in the box: the dialog stays open and says what to paste.
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', '  ');
  await page.click('#load-go');
  await page.locator('#load-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#load-error'), /Nothing to load: paste a FEN or a PGN/);
  assert.ok(await page.locator('#dlg-load').isVisible());
  // A PGN longer than a session may hold: the server's message names the limit.
  const long = Array.from({ length: 330 }, (_, k) => `${2 * k + 1}. Nf3 Nf6 ${2 * k + 2}. Ng1 Ng8`).join(' ') + ' *';
  await page.fill('#dlg-load textarea', long);
  await page.click('#load-go');
  // (issue 75: beside the text in the dialog, which stays open)
  await page.waitForFunction(() => /plies/.test(document.getElementById('load-error').textContent));
  assert.match(await page.textContent('#load-error'), new RegExp(`1320 plies; the GUI holds games of at most ${i.maxPlies} plies`));
  assert.ok(await page.locator('#dlg-load').isVisible());
  await page.close();
});

test('HTTP: PUT, PATCH, OPTIONS and other methods a path does not take get 405 with an Allow header', async () => {
  const created = await (await fetch(new URL('/api/sessions', gui.url), { method: 'POST', headers: { 'X-Janus': '1' }, body: '{}' })).json();
  const cases = [
    ['PUT', '/api/sessions', 'POST'],
    ['PATCH', '/api/info', 'GET, HEAD'],
    ['OPTIONS', '/', 'GET, HEAD'],
    ['OPTIONS', '/api/info', 'GET, HEAD'],
    ['PUT', `/api/sessions/${created.id}/move`, 'POST'],
    ['PATCH', `/api/sessions/${created.id}`, 'GET, HEAD, DELETE'],
    ['DELETE', '/assets/app.js', 'GET, HEAD'],
  ];
  for (const withHeader of [true, false]) {
    for (const [method, p, allow] of cases) {
      const res = await fetch(new URL(p, gui.url), { method, headers: withHeader ? { 'X-Janus': '1' } : {} });
      assert.equal(res.status, 405, `${method} ${p}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${p}`);
      assert.match((await res.json()).error, new RegExp(`method ${method} is not allowed`));
    }
  }
  // Unknown API paths stay 404.
  assert.equal((await fetch(new URL('/api/nothing', gui.url), { method: 'PUT', headers: { 'X-Janus': '1' } })).status, 404);
  await fetch(new URL(`/api/sessions/${created.id}`, gui.url), { method: 'DELETE', headers: { 'X-Janus': '1' } });
});
