// Browser tests of what a Lichess user expects to find (issue 15, section 3): the opening's name
// and ECO code, a two-column move list, typed moves in SAN, sounds with a switch, an evaluation
// graph with axes and labels, PGN variations, comments and NAGs as an editable move tree, and a
// choice of game in a PGN with several.
//
//   JANUS_BIN=../build/janus npm test          (from web/, after `npm run build`; see lib.mjs)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as lib from './lib.mjs';
import { closeDialog, openDialog, sans, settled, state, waitMyTurn } from './lib.mjs';

const gui = lib.guiFixture();
const { openPage } = gui;

test("the opening's ECO code and name (Lichess's tables) for the shown position, and in the PGN", async () => {
  const page = await openPage();
  assert.ok(await page.locator('#opening').isHidden(), 'no opening before the first move');
  // Waits for analysis mode and no request in flight: the move list takes its tree form in
  // analysis mode, so a click before that could land on a cell that moves under the pointer.
  await load(page, '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 *', 7);
  // 4. Ba4 is not a named position of its own: the deepest named one before it is shown.
  assert.equal(await page.textContent('#opening'), 'C70 Ruy Lopez: Morphy Defense');
  await page.click('#moves .move[data-ply="2"]');
  await page.waitForFunction(() => document.body.dataset.viewPly === '2');
  assert.equal(await page.textContent('#opening'), "C20 King's Pawn Game");
  const pgn = (await state(page)).pgn;
  assert.match(pgn, /\[ECO "C70"\]/);
  assert.match(pgn, /\[Opening "Ruy Lopez: Morphy Defense"\]/);
  await page.close();
});

/** Loads a FEN or PGN with the L dialog, in analysis mode when `analyse`, and waits for `ply`. */
async function load(page, text, ply, analyse = true) {
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', text);
  if (analyse) await page.check('#dlg-load input[name="analyse"]');
  else await page.uncheck('#dlg-load input[name="analyse"]');
  await page.click('#load-go');
  await page.waitForFunction((p) => document.body.dataset.ply === String(p), ply);
  if (analyse) await page.waitForFunction(() => document.body.dataset.mode === 'analysis');
  await settled(page);
}

/** Rectangles of the move list's cells in one go (the list is redrawn with every engine update). */
async function cells(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#moves > span')].map((e) => {
      const r = e.getBoundingClientRect();
      return { cls: e.className.trim(), text: e.textContent, x: Math.round(r.x), y: Math.round(r.y) };
    }),
  );
}

test('the move list has two columns: number, White, Black (and an empty White cell when Black starts)', async () => {
  const page = await openPage();
  await load(page, '1. d4 d5 2. c4 e6 3. Nc3 *', 5);
  let c = await cells(page);
  assert.deepEqual(c.map((e) => e.text), ['1.', 'd4', 'd5', '2.', 'c4', 'e6', '3.', 'Nc3']);
  const [n1, w1, b1, n2, w2, b2, n3, w3] = c;
  assert.ok(n1.y === w1.y && w1.y === b1.y, 'number, White and Black share a row');
  assert.ok(n1.x < w1.x && w1.x < b1.x, 'in that order from left to right');
  assert.ok(n2.y > n1.y && w2.y === n2.y && b2.y === n2.y, 'the second move is the next row');
  assert.ok(w2.x === w1.x && b2.x === b1.x && n3.x === n1.x && w3.x === w1.x, 'columns line up');
  // A game from a position with Black to move: "…" stands in White's column.
  await load(page, '[SetUp "1"]\n[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]\n\n1... e5 2. Nf3 *', 2);
  c = await cells(page);
  assert.deepEqual(c.map((e) => e.text), ['1.', '…', 'e5', '2.', 'Nf3']);
  assert.ok(c[1].x === w1.x && c[2].x === b1.x && c[1].y === c[2].y && c[4].y > c[2].y);
  await page.close();
});

test('moves typed in SAN (or UCI) are played; an illegal one is named', async () => {
  const page = await openPage();
  await page.fill('#san-input', 'e4');
  await page.press('#san-input', 'Enter');
  await waitMyTurn(page, 2);
  assert.equal((await sans(page))[0], 'e4');
  assert.equal(await page.inputValue('#san-input'), '', 'the box is emptied after a move');
  await page.fill('#san-input', 'Ke3');
  await page.press('#san-input', 'Enter');
  await page.locator('#san-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#san-error'), /'Ke3' is not a legal move here/);
  assert.equal(await page.evaluate(() => document.body.dataset.ply), '2');
  await page.fill('#san-input', 'g1f3');
  await page.press('#san-input', 'Enter');
  await waitMyTurn(page, 4);
  assert.equal((await sans(page))[2], 'Nf3');
  // Castling and promotion in analysis mode (Escape leaves the box, so that keys are shortcuts again).
  await page.press('#san-input', 'Escape');
  await load(page, '4k3/1P6/8/8/8/8/8/R3K3 w Q - 0 1', 0);
  await page.waitForFunction(() => document.getElementById('fen').value === '4k3/1P6/8/8/8/8/8/R3K3 w Q - 0 1');
  await page.fill('#san-input', 'O-O-O');
  await page.press('#san-input', 'Enter');
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  await page.fill('#san-input', 'Kf7');
  await page.press('#san-input', 'Enter');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  await page.fill('#san-input', 'b8=N');
  await page.press('#san-input', 'Enter');
  await page.waitForFunction(() => document.body.dataset.ply === '3');
  assert.deepEqual(await sans(page), ['O-O-O', 'Kf7', 'b8=N']);
  await page.close();
});

test('sounds for a move, a capture and a check, with a switch in the settings', async () => {
  const page = await openPage();
  await openDialog(page, 'c', 'dlg-theme');
  assert.equal(await page.isChecked('#sounds'), true, 'sounds are on by default');
  await closeDialog(page, 'dlg-theme');
  const fen = 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
  await load(page, fen, 0);
  await page.waitForFunction((f) => document.getElementById('fen').value === f, fen);
  const sounds = () => page.evaluate(() => [Number(document.body.dataset.sounds ?? '0'), document.body.dataset.lastSound]);
  const play = async (san, ply) => {
    await page.fill('#san-input', san);
    await page.press('#san-input', 'Enter');
    await page.waitForFunction((p) => document.body.dataset.ply === String(p), ply);
  };
  const [n0] = await sounds();
  await play('exd5', 1);
  assert.deepEqual(await sounds(), [n0 + 1, 'capture']);
  await play('Nf6', 2);
  assert.deepEqual(await sounds(), [n0 + 2, 'move']);
  await play('Bb5+', 3);
  assert.deepEqual(await sounds(), [n0 + 3, 'check']);
  // Switched off: silence, remembered.
  await page.press('#san-input', 'Escape');
  await openDialog(page, 'c', 'dlg-theme');
  await page.uncheck('#sounds');
  await closeDialog(page, 'dlg-theme');
  await play('c6', 4);
  assert.equal((await sounds())[0], n0 + 3);
  assert.equal(await page.evaluate(() => localStorage.getItem('janus.sounds')), 'false');
  await page.close();
});

test('the evaluation graph has a pawn axis and move numbers', async () => {
  const page = await openPage();
  await load(page, '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *', 16);
  await page.locator('#graph').waitFor({ state: 'visible' });
  const y = await page.locator('#graph-labels .graph-y-label').allTextContents();
  assert.deepEqual(y, ['+3', '+1', '0', '−1', '−3']);
  const x = await page.locator('#graph-labels .graph-x-label').allTextContents();
  assert.deepEqual(x, ['2', '4', '6', '8']);
  assert.match(await page.textContent('#graph-labels .graph-title'), /pawns, White's view/);
  // The labels sit beside and below the plot, in order.
  const tops = await page.locator('#graph-labels .graph-y-label').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
  assert.deepEqual([...tops].sort((a, b) => a - b), tops);
  await page.close();
});

test('a PGN with several games: the player picks one', async () => {
  const page = await openPage();
  const two =
    '[Event "First"]\n[White "Anna"]\n[Black "Ben"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n' +
    '[Event "Second"]\n[White "Cleo"]\n[Black "Dan"]\n[Result "*"]\n\n1. d4 Nf6 2. c4 e6 *\n';
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', two);
  await page.click('#load-go');
  await page.locator('#load-pick').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#load-error'), /This PGN has 2 games: pick one/);
  const options = await page.locator('#load-game option').allTextContents();
  assert.deepEqual(options, ['1. Anna – Ben, First, 1-0 (4 moves)', '2. Cleo – Dan, Second, * (2 moves)']);
  await page.selectOption('#load-game', '1');
  await page.click('#load-go');
  await page.locator('#dlg-load').waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.body.dataset.ply === '4');
  const st = await state(page);
  assert.deepEqual(st.moves.map((m) => m.san), ['d4', 'Nf6', 'c4', 'e6']);
  assert.match(st.pgn, /\[White "Cleo"\]/);
  await page.close();
});

test('PGN variations, comments and NAGs are shown as a move tree; a move from an earlier position starts a variation', async () => {
  const page = await openPage();
  await load(page, '{Start} 1. e4 e5 (1... c5 2. Nf3 $1 {Sicilian} d6) 2. Nf3 {main line} Nc6 $2 3. Bb5 *', 5);
  const text = async () => (await page.textContent('#moves')).replace(/\s+/g, ' ').trim();
  assert.equal(await text(), 'Start 1. e4 e5 (1… c5 2. Nf3! Sicilian 2… d6) 2. Nf3 main line 2… Nc6? 3. Bb5');
  assert.equal(await page.locator('#moves .variation').count(), 1);
  assert.deepEqual(await page.locator('#moves .comment').allTextContents(), ['Start', 'Sicilian', 'main line']);
  // The server holds the main line.
  assert.deepEqual((await state(page)).moves.map((m) => m.san), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5']);
  // A click on a move of the variation makes it the line the server holds, the tree stays.
  await page.click('#moves .variation .move:has-text("d6")');
  await page.waitForFunction(() => document.body.dataset.ply === '4' && document.body.dataset.viewPly === '4');
  assert.deepEqual((await state(page)).moves.map((m) => m.san), ['e4', 'c5', 'Nf3', 'd6']);
  assert.equal(await text(), 'Start 1. e4 e5 (1… c5 2. Nf3! Sicilian 2… d6) 2. Nf3 main line 2… Nc6? 3. Bb5');
  assert.equal(await page.locator('#moves .move.current').textContent(), 'd6');
  // A move from an earlier position (after 1. e4) starts a new variation; the others stay.
  await page.click('#moves .move[data-ply="1"]');
  await page.press('body', 'Escape');
  await page.fill('#san-input', 'e6');
  await page.press('#san-input', 'Enter');
  await page.waitForFunction(() => document.body.dataset.ply === '2');
  assert.equal(await page.locator('#moves .variation').count(), 2);
  assert.match(await text(), /\(1… e6\)/);
  // Copy PGN gives the whole tree.
  await page.press('#san-input', 'Escape');
  await page.click('#btn-copy-pgn');
  const pgn = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(pgn, /1\. e4 e5 \( 1\.\.\. c5 2\. Nf3 \$1 \{ Sicilian \} 2\.\.\. d6 \) \( 1\.\.\. e6 \) 2\. Nf3 \{ main line \} (2\.\.\. )?Nc6 \$2 3\. Bb5/);
  await page.close();
});
