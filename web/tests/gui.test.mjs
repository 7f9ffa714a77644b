// Browser tests of the Janus web GUI: `janus gui` on an ephemeral port, Debian's Chromium driven
// headless by playwright-core (no browser download). Run from web/ after `npm run build`:
//
//   JANUS_BIN=../build/janus npm test
//
// Environment: see lib.mjs (JANUS_BIN, CHROMIUM, JANUS_SCREENSHOTS, JANUS_TEST_WEB_DIR). Screenshots:
// 01-start.png, 02-midgame-eval.png, 03-analysis-graph.png, 04-game-over.png, 05-bug-report.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as lib from './lib.mjs';
import { clickSquare, closeDialog, drag, newGame, openDialog, sans, shots, state, waitMyTurn } from './lib.mjs';

const gui = lib.guiFixture();
const { openPage } = gui;

// ---- Tests -------------------------------------------------------------------------------------

test('plays by click and drag with highlighting, undo, hint, eval, flip, theme, copy, PGN export, resign', async () => {
  const page = await openPage();
  await page.screenshot({ path: path.join(shots, '01-start.png') });
  // Every shortcut is shown on its button.
  for (const [id, key] of [['btn-undo', 'U'], ['btn-hint', 'H'], ['btn-eval', 'E'], ['btn-flip', 'F'], ['btn-theme', 'C']])
    assert.match(await page.getAttribute(`#${id}`, 'title'), new RegExp(`\\(${key}\\)`));
  // The New game dialog offers the engine faces (NNUE greyed out when the build has no network);
  // NNUE is the default when built in.
  const faceInfo = await (await fetch(new URL('/api/info', gui.url))).json();
  assert.equal(await page.locator('#face-select option:disabled').count(), faceInfo.nnue ? 0 : 1);
  assert.equal(await page.locator('#face-select option[value="mcts"]:not([disabled])').count(), 1);
  assert.equal(await page.inputValue('#face-select'), faceInfo.nnue ? 'alphabeta-nnue' : 'alphabeta-hce');

  await newGame(page, { color: 'white', level: '1' });
  assert.match(await page.textContent('#status'), /Your move/);

  // Click-click move with legal destinations highlighted.
  await clickSquare(page, 'e2');
  // chessground redraws on the next animation frame: wait for the two destination dots.
  await page.waitForFunction(() => document.querySelectorAll('cg-board square.move-dest').length === 2);
  await clickSquare(page, 'e4');
  await waitMyTurn(page, 2);
  assert.equal((await sans(page))[0], 'e4');
  // Drag and drop.
  await drag(page, 'g1', 'f3');
  await waitMyTurn(page, 4);
  assert.equal((await sans(page))[2], 'Nf3');
  // An illegal drop is refused on the board (no request, no move).
  await drag(page, 'f3', 'f6');
  assert.equal(await page.evaluate(() => document.body.dataset.ply), '4');

  // Undo (U): the player's move and the engine's reply are taken back.
  await page.keyboard.press('u');
  await waitMyTurn(page, 2);
  assert.deepEqual((await sans(page)).length, 2);

  // Evaluation (E): eval bar with the score and the hand-crafted terms.
  await page.keyboard.press('e');
  await page.locator('#eval-panel').waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.querySelectorAll('#eval-table tr').length === 14);
  const terms = await page.locator('#eval-table tr th:first-child').allTextContents();
  assert.ok(terms.includes('Material') && terms.includes('Mobility') && terms.includes('King shelter'), terms.join());
  assert.ok(await page.locator('#eval-bar').isVisible());
  assert.match(await page.textContent('#eval-bar-text'), /^[+-]\d+\.\d\d$|^#/);
  // The NNUE score of the built-in network stands next to the hand-crafted total.
  const info = await (await fetch(new URL('/api/info', gui.url))).json();
  const notes = await page.textContent('#eval-notes');
  if (info.nnue) assert.match(notes, /NNUE evaluation: [+-]?\d+\.\d\d for White \(nn-[0-9a-f]{16} /, notes);
  else assert.match(notes, /NNUE: no network built in\./, notes);

  // Hint (H): an arrow and the move in the status; H again plays it.
  await page.keyboard.press('h');
  await page.waitForFunction(() => /Hint: /.test(document.getElementById('status').textContent));
  await page.waitForFunction(() => document.querySelectorAll('#board svg.cg-shapes line').length > 0);
  const hinted = (await page.textContent('#status')).match(/Hint: (\S+)/)[1];
  await page.keyboard.press('h');
  await waitMyTurn(page, 4);
  assert.equal((await sans(page))[2], hinted);
  await page.keyboard.press('e');  // eval panel off again
  await page.locator('#eval-panel').waitFor({ state: 'hidden' });

  // Flip (F).
  await page.keyboard.press('f');
  assert.equal(await page.evaluate(() => document.body.dataset.orientation), 'black');
  assert.ok(await page.locator('#board .cg-wrap.orientation-black, #board.orientation-black').count());
  await page.keyboard.press('f');
  assert.equal(await page.evaluate(() => document.body.dataset.orientation), 'white');

  // Theme and piece set (C).
  await openDialog(page, 'c', 'dlg-theme');
  await page.check('#theme-choices input[value="blue"]');
  await page.check('#piece-choices input[value="glyph"]');
  assert.ok(await page.evaluate(() => document.body.classList.contains('theme-blue') && document.body.classList.contains('pieces-glyph')));
  const glyph = await page.evaluate(() => getComputedStyle(document.querySelector('cg-board piece.king.white'), '::before').content);
  assert.equal(glyph, '"♚"');
  await page.check('#theme-choices input[value="brown"]');
  await page.check('#piece-choices input[value="cburnett"]');
  await closeDialog(page, 'dlg-theme');

  // Copy FEN and PGN, and the PGN download.
  await page.click('#btn-copy-fen');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.inputValue('#fen'));
  await page.click('#btn-copy-pgn');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /1\. e4 \S+ 2\. /);
  const href = await page.getAttribute('#pgn-download', 'href');
  const pgn = await page.evaluate(async (h) => (await fetch(h)).text(), href);
  assert.match(pgn, /\[Result "\*"\]/);

  // Move list: clicking a move shows that position (FEN history), P/D step through it.
  await page.click('#moves .move[data-ply="1"]');
  assert.equal(await page.inputValue('#fen'), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  await page.keyboard.press('d');
  assert.equal(await page.evaluate(() => document.body.dataset.viewPly), '2');
  await page.keyboard.press('p');
  await page.keyboard.press('p');
  assert.equal(await page.inputValue('#fen'), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  await page.keyboard.press('End');

  // Load a PGN (L) of a middlegame; with the evaluation on, a hint draws its arrow.
  await page.keyboard.press('l');
  await page.fill(
    '#dlg-load textarea',
    '[Event "Ruy Lopez"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O ' +
      '9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 *',
  );
  await page.click('#load-go');
  await page.waitForFunction(() => document.body.dataset.ply === '28');
  assert.equal((await sans(page))[27], 'g6');
  await page.keyboard.press('e');
  await page.waitForFunction(() => document.querySelectorAll('#eval-table tr').length === 14);
  await page.keyboard.press('h');
  await page.waitForFunction(() => /Hint: /.test(document.getElementById('status').textContent));
  await page.waitForFunction(() => document.querySelectorAll('#board svg.cg-shapes line').length > 0);
  await page.screenshot({ path: path.join(shots, '02-midgame-eval.png') });
  await page.keyboard.press('e');

  // Resignation ends the game; the result goes to the PGN.
  page.once('dialog', (d) => d.accept());
  await page.click('#btn-resign');
  await page.waitForSelector('#game-over:not([hidden])');
  assert.match(await page.textContent('#game-over-message'), /White resigns: Black wins\./);
  assert.match((await state(page)).pgn, /\[Result "0-1"\]/);
  await page.close();
});

test('a full game from a loaded FEN: castling, promotion, hints to checkmate, review, analysis', async () => {
  const page = await openPage();
  await newGame(page, { color: 'white', level: '1' });

  // Load a FEN (L): White can castle queenside and promote.
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', '4k3/1P6/8/8/8/8/8/R3K3 w Q - 0 1');
  await page.click('#load-go');
  await page.waitForFunction(() => document.getElementById('fen').value === '4k3/1P6/8/8/8/8/8/R3K3 w Q - 0 1');

  // Castling by clicking king then its destination.
  await clickSquare(page, 'e1');
  await clickSquare(page, 'c1');
  await waitMyTurn(page, 2);
  assert.equal((await sans(page))[0], 'O-O-O');

  // Promotion with the picker (click the knight, then check the board and SAN).
  await clickSquare(page, 'b7');
  await clickSquare(page, 'b8');
  await page.locator('#promotion').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#promotion button.promo').count(), 4);
  await page.click('#promotion button[data-role="queen"]');
  await waitMyTurn(page, 4);
  assert.match((await sans(page))[2], /^b8=Q/);

  // Finish with the hint: H shows the engine's move, H again plays it, until mate.
  for (let i = 0; i < 30; i++) {
    if ((await page.evaluate(() => document.body.dataset.over)) === 'true') break;
    const ply = Number(await page.evaluate(() => document.body.dataset.ply));
    await page.keyboard.press('h');
    await page.waitForFunction(() => /Hint: /.test(document.getElementById('status').textContent));
    await page.keyboard.press('h');
    await page.waitForFunction(
      (p) => document.body.dataset.over === 'true' || (Number(document.body.dataset.ply) >= p + 2 && document.body.dataset.thinking === 'false'),
      ply,
    );
  }
  await page.waitForSelector('#game-over:not([hidden])');
  assert.equal(await page.textContent('#game-over-message'), 'Checkmate: White wins.');
  assert.equal(await page.textContent('#game-over-result'), '1-0');
  assert.match(await page.textContent('#moves'), /#\s*1-0/);
  const st = await state(page);
  assert.equal(st.termination, 'checkmate');
  assert.match(st.pgn, /\[Result "1-0"\]/);
  assert.match(st.pgn, /O-O-O/);
  assert.match(st.pgn, /b8=Q/);
  await page.screenshot({ path: path.join(shots, '04-game-over.png') });

  // The game was saved in the data folder with its result.
  const saved = readFileSync(path.join(gui.dataDir, 'games', st.gameFile), 'utf8');
  assert.match(saved, /1-0\s*$/);

  // One-click review of the finished game (quick depth for CI).
  await page.selectOption('#review-depth', '6');
  await page.click('#game-over-review');
  await page.waitForSelector('#review-table', { timeout: 60_000 });
  assert.equal(await page.locator('#review-table tr').count(), 3);
  assert.ok(Number(await page.getAttribute('#graph', 'data-points')) >= st.ply);

  // Analysis of an earlier position: three lines with arrows, depth and speed, and the graph.
  await page.click('#moves .move[data-ply="4"]');
  await page.click('#btn-analyse-toggle');
  await page.waitForFunction(() => document.body.dataset.analysis === 'true');
  await page.selectOption('#multipv', '3');
  await page.waitForFunction(() => document.querySelectorAll('#lines li').length === 3);
  await page.waitForFunction(() => /depth \d+/.test(document.getElementById('analysis-stats').textContent));
  assert.ok((await page.locator('#board svg.cg-shapes line').count()) >= 2);
  assert.ok(await page.locator('#graph').isVisible());
  assert.ok(await page.locator('#eval-bar').isVisible());
  await page.keyboard.press(' ');  // stop the engine
  await page.waitForFunction(() => document.getElementById('btn-analyse-toggle').textContent === 'Start engine');

  // A game with blunders, loaded as PGN straight into analysis mode, reviewed with R.
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', '1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0');
  await page.check('#dlg-load input[name="analyse"]');
  await page.click('#load-go');
  await page.waitForFunction(() => document.body.dataset.ply === '13' && document.body.dataset.mode === 'analysis');
  await page.selectOption('#review-depth', '10');  // depth 6 misses the mate after 5...Bxd1 (Legal's mate)
  await page.keyboard.press('r');
  await page.waitForSelector('#review-table', { timeout: 60_000 });
  const blunders = await page.locator('#review-table tr:nth-child(3) td.blunder').textContent();
  assert.ok(Number(blunders) >= 1, `Black's blunders: ${blunders}`);
  assert.ok((await page.locator('#moves .move.blunder').count()) >= 1);
  assert.match(await page.locator('#moves .move[data-ply="10"]').textContent(), /Bxd1\?\?/);  // 5...Bxd1?? allows mate
  // Analyse the position before the blunder, with the graph of the whole game.
  await page.click('#moves .move[data-ply="9"]');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelectorAll('#lines li').length === 3);
  await page.waitForFunction(() => /depth ([6-9]|\d\d)/.test(document.getElementById('analysis-stats').textContent));
  assert.ok(Number(await page.getAttribute('#graph', 'data-points')) >= 13);
  await page.screenshot({ path: path.join(shots, '03-analysis-graph.png') });

  // A move on an earlier position in analysis mode starts a variation there: the server analyses
  // the new line, the move list keeps the old one.
  await clickSquare(page, 'd6');
  await clickSquare(page, 'e5');
  await page.waitForFunction(() => document.body.dataset.ply === '10');
  assert.equal((await state(page)).moves[9].san, 'dxe5');
  assert.match(await page.textContent('#moves .variation'), /dxe5/);
  assert.match(await page.textContent('#moves'), /Bxd1/);
  assert.equal(await page.evaluate(() => document.body.dataset.over), 'false');
  await page.close();
});

test('playing Black with a premove, independent tabs, and a server error that links to the bug report', async () => {
  const page = await openPage();
  // Premoves are off by default; switch them on in the settings (C).
  await openDialog(page, 'c', 'dlg-theme');
  assert.equal(await page.isChecked('#premoves'), false);
  await page.check('#premoves');
  await closeDialog(page, 'dlg-theme');
  // Black against 2 s per move: while Janus thinks about its first move, premove e7-e5.
  await newGame(page, { color: 'black', moveTimeMs: 2000 });
  await page.waitForFunction(() => document.body.dataset.thinking === 'true' && document.body.dataset.orientation === 'black');
  await drag(page, 'e7', 'e5');
  await page.waitForFunction(() => document.body.dataset.ply === '2', undefined, { timeout: 15_000 });
  assert.equal((await sans(page))[1], 'e5');
  await openDialog(page, 'c', 'dlg-theme');
  await page.uncheck('#premoves');
  await closeDialog(page, 'dlg-theme');

  await newGame(page, { color: 'black', level: '1' });
  await page.waitForFunction(() => document.body.dataset.ply === '1' && document.body.dataset.orientation === 'black');

  // A second tab gets its own session and game.
  const other = await openPage();
  assert.notEqual(
    await other.evaluate(() => sessionStorage.getItem('janus.session')),
    await page.evaluate(() => sessionStorage.getItem('janus.session')),
  );
  assert.equal(await other.evaluate(() => document.body.dataset.ply), '0');
  await other.close();

  // Reloading the tab keeps its game.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.evaluate(() => document.body.dataset.ply), '1');

  // A server error: the page shows the error with a link to the bug report (PGN + FEN history).
  await page.evaluate(() => window.janus.debugFail());
  const link = page.locator('#bug-report-link');
  await link.waitFor();
  const [report] = await Promise.all([gui.context.waitForEvent('page'), link.click()]);
  await report.waitForLoadState();
  const text = await report.textContent('body');
  assert.match(text, /simulated internal error/);
  assert.match(text, /FEN history:/);
  assert.match(text, /PGN:/);
  await page.screenshot({ path: path.join(shots, '05-bug-report.png') });
  await report.close();
  assert.ok(readdirSync(path.join(gui.dataDir, 'reports')).length >= 1);
  await page.close();
});
