// Builds the Janus web GUI into dist/ (served by `janus gui`): one ES module bundle (esbuild),
// one stylesheet (chessground's base, board and piece CSS + ours) and index.html.
import * as esbuild from 'esbuild';
import { mkdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';

const out = 'dist';
await rm(out, { recursive: true, force: true });
await mkdir(`${out}/assets`, { recursive: true });

await esbuild.build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  outfile: `${out}/assets/app.js`,
  logLevel: 'warning',
});

const cg = 'node_modules/@lichess-org/chessground/assets';
const css = await Promise.all(
  [`${cg}/chessground.base.css`, `${cg}/chessground.brown.css`, `${cg}/chessground.cburnett.css`, 'src/style.css'].map(
    (f) => readFile(f, 'utf8'),
  ),
);
await writeFile(`${out}/assets/app.css`, css.join('\n'));
await copyFile('src/index.html', `${out}/index.html`);
await copyFile('src/favicon.svg', `${out}/favicon.svg`);
console.log(`built ${out}/ (index.html, assets/app.js, assets/app.css)`);
