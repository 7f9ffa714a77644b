// Evaluation graph of the whole game (SVG): White's winning chances per ply, the shown position
// marked, review judgements as coloured dots. Clicking a point jumps to that position. Axes: dashed
// lines at +-1 and +-3 pawns labelled in pawns (White's view) on the left, move numbers below.

import type { ReviewMove, Score } from './api';

/**
 * Winning chances in [-1, 1] from centipawns (White's view): 2 / (1 + exp(-0.00368208 cp)) - 1,
 * the logistic curve Lichess fits to its games (lila, modules/analyse WinPercent / ui winningChances).
 * Mates count as +-1.
 */
export function winningChances(score: Score): number {
  // The tables' verdict decides (a cursed win or blessed loss is a draw under the 50-move rule).
  if (score.tb) return score.tb.result === 'win' ? 1 : score.tb.result === 'loss' ? -1 : 0;
  // mate 0: the side to move is mated (`mated`, or the sign of cp, +-1000, when the server sends both).
  if (score.mate === 0 && score.mated) return score.mated === 'white' ? -1 : 1;
  if (score.mate !== undefined && score.mate !== 0) return score.mate > 0 ? 1 : -1;
  if (score.mate === 0 && score.cp) return Math.sign(score.cp);
  const cp = Math.max(-1000, Math.min(1000, score.cp ?? 0));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

const W = 600;
const H = 120;
const SVG = 'http://www.w3.org/2000/svg';

export interface GraphPoint {
  ply: number;
  score: Score;
}

/**
 * Draws the graph into `svg` and its axis labels into `labels` (an HTML box laid over the SVG).
 * `moveNumber(ply)` is the move number of the move that leads to `ply`.
 */
export function drawGraph(
  svg: SVGSVGElement,
  labels: HTMLElement,
  points: GraphPoint[],
  plies: number,
  current: number,
  review: ReviewMove[] | null,
  onPick: (ply: number) => void,
  moveNumber: (ply: number) => number,
): void {
  svg.replaceChildren();
  labels.replaceChildren();
  const label = (cls: string, text: string, style: Partial<CSSStyleDeclaration>) => {
    const el = document.createElement('span');
    el.className = cls;
    el.textContent = text;
    Object.assign(el.style, style);
    labels.appendChild(el);
  };
  const x = (ply: number) => (plies === 0 ? W / 2 : (ply / plies) * W);
  const y = (s: Score) => H / 2 - (winningChances(s) * (H - 8)) / 2;
  const add = (tag: string, attrs: Record<string, string | number>) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    svg.appendChild(el);
    return el;
  };
  add('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'graph-black' });
  add('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'graph-white' });
  add('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-axis' });
  // Value axis: pawns on the winning-chances scale.
  for (const pawns of [3, 1, 0, -1, -3]) {
    const yy = y({ cp: pawns * 100 });
    if (pawns !== 0) add('line', { x1: 0, y1: yy, x2: W, y2: yy, class: 'graph-grid' });
    label('graph-y-label', pawns > 0 ? `+${pawns}` : pawns < 0 ? `−${-pawns}` : '0', { top: `${(yy / H) * 100}%` });
  }
  label('graph-title', "pawns, White's view", {});
  // Move axis: about six labelled moves.
  const moves = Math.max(1, Math.ceil(plies / 2));
  const step = [1, 2, 5, 10, 20, 50, 100].find((k) => moves / k <= 6) ?? 200;
  for (let ply = 1; ply <= plies; ++ply) {
    const n = moveNumber(ply);
    const first = ply === 1 || moveNumber(ply - 1) !== n;
    if (first && n % step === 0) label('graph-x-label', String(n), { left: `${(x(ply) / W) * 100}%` });
  }
  const sorted = [...points].sort((a, b) => a.ply - b.ply);
  if (sorted.length > 0) {
    const line = sorted.map((p) => `${x(p.ply).toFixed(1)},${y(p.score).toFixed(1)}`).join(' ');
    const first = sorted[0]!;
    const last = sorted[sorted.length - 1]!;
    add('polygon', {
      points: `${x(first.ply).toFixed(1)},${H} ${line} ${x(last.ply).toFixed(1)},${H}`,
      class: 'graph-area',
    });
    add('polyline', { points: line, class: 'graph-line' });
  }
  for (const r of review ?? []) {
    if (!r.judgement) continue;
    const p = sorted.find((q) => q.ply === r.ply);
    if (p) add('circle', { cx: x(r.ply), cy: y(p.score), r: 4, class: `graph-dot ${r.judgement}` });
  }
  add('line', { x1: x(current), y1: 0, x2: x(current), y2: H, class: 'graph-cursor' });
  svg.onclick = (e: MouseEvent) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box.left) / box.width) * plies);
    onPick(Math.max(0, Math.min(plies, ply)));
  };
  svg.dataset.points = String(sorted.length);
}
