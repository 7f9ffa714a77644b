// Browser tests of the MCTS face in the GUI (issue 13): a game against MCTS, the MCTS analysis
// table (alone and next to alpha-beta's lines), switching back to alpha-beta, and the API's
// validation of the face. Run from web/ after `npm run build`: JANUS_BIN=../build/janus npm test.
// Screenshot: 08-mcts-analysis.png (both faces on one position).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as lib from './lib.mjs';
import { newGame, settled, shots, state, waitMyTurn } from './lib.mjs';

const gui = lib.guiFixture();
const { openPage } = gui;

/** The MCTS table's rows as the page shows them (numbers from the rows' data attributes). */
async function mctsRows(page) {
  return page.$$eval('#mcts-table tbody tr', (trs) =>
    trs.map((tr) => ({
      others: tr.classList.contains('others'),
      san: tr.querySelector('td')?.textContent ?? '',
      visits: Number(tr.dataset.visits),
      share: Number(tr.dataset.share),
      prior: tr.dataset.prior === undefined ? null : Number(tr.dataset.prior),
      pv: tr.querySelector('td.pv')?.textContent ?? '',
    })),
  );
}

/** Arrows on the board in chessground's purple and pink (MCTS) or green (alpha-beta's best line). */
const arrows = (page, color) => page.locator(`#board svg.cg-shapes line[stroke="${color}"]`).count();
const kPurple = '#68217a';
const kGreen = '#15781B';

test('a game against MCTS: Janus moves by MCTS playouts and the choice is remembered', async () => {
  const page = await openPage();
  await newGame(page, { color: 'black', face: 'mcts', playouts: 120 });
  await waitMyTurn(page, 1);
  const st = await state(page);
  assert.equal(st.face, 'mcts');
  assert.equal(st.playouts, 120);
  assert.equal(st.elo, null);
  assert.match(st.pgn, /\[White "Janus MCTS \(120 playouts\)"\]/);
  // The engine's thinking arrived as info events of the MCTS face.
  assert.equal(await page.evaluate(() => document.body.dataset.engineFace), 'mcts');
  assert.match(await page.textContent('#player-top .name'), /Janus MCTS \(120 playouts\)/);

  // The dialog shows MCTS's strength (playouts or time, no Elo) and remembers the choice after a reload.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await lib.openDialog(page, 'n', 'dlg-new');
  assert.equal(await page.inputValue('#face-select'), 'mcts');
  assert.equal(await page.inputValue('#mcts-playouts'), '120');
  assert.ok(await page.locator('#strength-mcts').isVisible());
  assert.ok(!(await page.locator('#strength-ab').isVisible()));
  await page.selectOption('#face-select', await page.locator('#face-select option:not([disabled])').first().getAttribute('value'));
  assert.ok(await page.locator('#strength-ab').isVisible());
  await lib.closeDialog(page, 'dlg-new');
  await page.close();
});

test('MCTS analysis: visits, shares, priors and PVs live, next to alpha-beta with both, and back to alpha-beta', async () => {
  const page = await openPage();
  await newGame(page, { color: 'white', level: '1' });
  await page.keyboard.press('a');  // analysis mode, engine on
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  await settled(page);

  await page.selectOption('#analysis-face', 'mcts');
  await page.waitForFunction(() => document.body.dataset.analysisFace === 'mcts');
  // Rows arrive from the info events; wait for a few hundred playouts at the root.
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('#mcts-table tbody tr[data-rank]')];
    return rows.length >= 3 && rows.slice(0, 3).every((r) => Number(r.dataset.visits) > 0) &&
      rows.reduce((n, r) => n + Number(r.dataset.visits), 0) >= 300;
  });
  const rows = await mctsRows(page);
  const ranked = rows.filter((r) => !r.others);
  assert.ok(ranked.length >= 3 && ranked.length <= 8, JSON.stringify(rows));
  for (let i = 1; i < ranked.length; ++i) assert.ok(ranked[i].visits <= ranked[i - 1].visits, JSON.stringify(ranked));
  const shares = rows.reduce((sum, r) => sum + r.share, 0);
  assert.ok(Math.abs(shares - 1) < 1e-6, `shares sum to ${shares}`);
  for (const r of ranked) assert.ok(r.prior >= 0 && r.prior <= 1, `prior ${r.prior}`);
  // The most visited move's principal variation, in SAN, starts with the move.
  await page.waitForFunction(() => (document.querySelector('#mcts-table tbody tr[data-rank="1"] td.pv')?.textContent ?? '') !== '');
  const first = (await mctsRows(page))[0];
  assert.match(first.pv, /^[KQRBNa-h][a-h1-8x=+#O-]*( |$)/);
  assert.equal(first.pv.split(' ')[0], first.san);
  // The shares are shown as percentages, Q as an expected score.
  assert.match(await page.textContent('#mcts-table thead'), /Q \(exp\. score\)/);
  // MCTS's arrows are purple; alpha-beta's lines are not shown.
  await page.waitForFunction((c) => document.querySelectorAll(`#board svg.cg-shapes line[stroke="${c}"]`).length > 0, kPurple);
  assert.equal(await page.locator('#lines li').count(), 0);
  assert.equal(await arrows(page, kGreen), 0);
  // Live: the root's visits grow.
  const visits = (rs) => rs.reduce((n, r) => n + r.visits, 0);
  const before = visits(await mctsRows(page));
  await page.waitForFunction(
    (v) => [...document.querySelectorAll('#mcts-table tbody tr')].reduce((n, r) => n + Number(r.dataset.visits), 0) > v,
    before,
  );

  // Both: alpha-beta's lines and the MCTS table of the same position, arrows in both colours.
  await page.selectOption('#analysis-face', 'both');
  await page.waitForFunction(() => document.body.dataset.analysisFace === 'both');
  await page.waitForFunction(() => document.querySelectorAll('#lines li').length >= 2);
  await page.waitForFunction(() => document.querySelectorAll('#mcts-table tbody tr[data-rank]').length >= 2);
  await page.waitForFunction(
    ([g, p]) =>
      document.querySelectorAll(`#board svg.cg-shapes line[stroke="${g}"]`).length > 0 &&
      document.querySelectorAll(`#board svg.cg-shapes line[stroke="${p}"]`).length > 0,
    [kGreen, kPurple],
  );
  assert.ok(await page.locator('#mcts-box').isVisible());
  assert.equal((await state(page)).analysis.face, 'both');
  await page.locator('#analysis-panel').screenshot({ path: path.join(shots, '08-mcts-analysis-panel.png') });
  await page.screenshot({ path: path.join(shots, '08-mcts-analysis.png') });

  // Back to alpha-beta: the PV lines, no MCTS table or arrows. The choice is remembered.
  await page.selectOption('#analysis-face', 'alphabeta');
  await page.waitForFunction(() => document.body.dataset.analysisFace === 'alphabeta');
  await page.waitForFunction(() => document.querySelectorAll('#lines li').length >= 2);
  assert.ok(!(await page.locator('#mcts-box').isVisible()));
  assert.equal(await arrows(page, kPurple), 0);
  assert.match(await page.textContent('#lines li:first-child'), /^[+-]\d+\.\d\d |^#/);
  assert.equal(await page.evaluate(() => localStorage.getItem('janus.analysisFace')), 'alphabeta');
  await page.close();
});

test('alpha-beta info events that arrive after a switch to MCTS draw no arrows and no lines', async () => {
  // The server stops alpha-beta's search when the face changes, but info events it sent just
  // before may arrive after the new state (seen in CI: 3 green arrows next to the MCTS table).
  // The page records the session's EventSource and alpha-beta's last analysis lines, then the
  // test delivers those lines again once the MCTS face is shown: a late event, made deterministic.
  const recordEvents = () => {
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(...args) {
        super(...args);
        window.__janusEvents = this;
        window.__alphaBetaLines = {};
        this.addEventListener('info', (ev) => {
          const info = JSON.parse(ev.data);
          if (info.kind === 'analysis' && info.face === 'alphabeta') window.__alphaBetaLines[info.multipv] = ev.data;
        });
      }
    };
  };
  const page = await gui.openPage({ initScript: recordEvents });
  await newGame(page, { color: 'white', level: '1' });
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  await settled(page);
  await page.selectOption('#analysis-face', 'alphabeta');
  await page.waitForFunction(() => document.body.dataset.analysisFace === 'alphabeta');
  await page.waitForFunction(() => document.querySelectorAll('#lines li').length >= 2);
  await page.waitForFunction((c) => document.querySelectorAll(`#board svg.cg-shapes line[stroke="${c}"]`).length > 0, kGreen);

  await page.selectOption('#analysis-face', 'mcts');
  await page.waitForFunction(() => document.body.dataset.analysisFace === 'mcts');
  await page.waitForFunction((c) => document.querySelectorAll(`#board svg.cg-shapes line[stroke="${c}"]`).length > 0, kPurple);
  const replayed = await page.evaluate(() => {
    const lines = Object.values(window.__alphaBetaLines);
    for (const data of lines) window.__janusEvents.dispatchEvent(new MessageEvent('info', { data }));
    return lines.length;
  });
  assert.ok(replayed >= 2, `${replayed} alpha-beta lines recorded`);
  // The MCTS table still updates (the page processed events after the replay).
  const before = await page.$$eval('#mcts-table tbody tr', (trs) => trs.reduce((n, r) => n + Number(r.dataset.visits), 0));
  await page.waitForFunction(
    (v) => [...document.querySelectorAll('#mcts-table tbody tr')].reduce((n, r) => n + Number(r.dataset.visits), 0) > v,
    before,
  );
  assert.equal(await arrows(page, kGreen), 0);
  assert.equal(await page.locator('#lines li').count(), 0);
  assert.ok(await arrows(page, kPurple) > 0);
  await page.close();
});

test('the API refuses a bad face with 400 and a JSON error naming the field', async () => {
  const page = await openPage();
  const answers = await page.evaluate(async () => {
    const id = sessionStorage.getItem('janus.session');
    const post = async (action, body) => {
      const r = await fetch(`/api/sessions/${id}/${action}`, {
        method: 'POST',
        headers: { 'X-Janus': '1', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: await r.json() };
    };
    await post('mode', { mode: 'analysis' });
    return [
      await post('analysis', { on: true, face: 'minimax' }),
      await post('new', { face: 'leela' }),
      await post('new', { face: 'mcts', elo: 1500 }),
    ];
  });
  assert.deepEqual(answers.map((a) => a.status), [400, 400, 400]);
  assert.match(answers[0].body.error, /field 'face': 'minimax' is not an analysis face; expected "alphabeta", "mcts" or "both"/);
  assert.match(answers[1].body.error, /field 'face': 'leela' is not an engine face/);
  assert.match(answers[2].body.error, /field 'elo': applies to the alpha-beta faces only/);
  await page.close();
});
