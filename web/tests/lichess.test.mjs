// Browser tests of what a Lichess user expects to find (issue 15, section 3): the opening's name
// and ECO code.
//
//   JANUS_BIN=../build/janus npm test          (from web/, after `npm run build`; see lib.mjs)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as lib from './lib.mjs';
import { openDialog, state } from './lib.mjs';

let server;
let url;
let context;

before(async () => {
  server = await lib.startServer();
  url = server.url;
  context = await lib.launchBrowser();
});

after(async () => {
  await context?.close();
  await server?.stop();
});

const openPage = () => lib.openPage(context, url);

test("the opening's ECO code and name (Lichess's tables) for the shown position, and in the PGN", async () => {
  const page = await openPage();
  assert.ok(await page.locator('#opening').isHidden(), 'no opening before the first move');
  await openDialog(page, 'l', 'dlg-load');
  await page.fill('#dlg-load textarea', '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 *');
  await page.check('#dlg-load input[name="analyse"]');
  await page.click('#load-go');
  await page.waitForFunction(() => document.body.dataset.ply === '7');
  // 4. Ba4 is not a named position of its own: the deepest named one before it is shown.
  assert.equal(await page.textContent('#opening'), 'C70 Ruy Lopez: Morphy Defense');
  await page.click('#moves .move[data-ply="2"]');
  assert.equal(await page.textContent('#opening'), "C20 King's Pawn Game");
  const pgn = (await state(page)).pgn;
  assert.match(pgn, /\[ECO "C70"\]/);
  assert.match(pgn, /\[Opening "Ruy Lopez: Morphy Defense"\]/);
  await page.close();
});
