// The MCTS analysis view: the root moves' table (visits, share, Q, prior, principal variation)
// and the MCTS arrows, from the server's "info" events of the MCTS face (docs/gui.md, "Info").

import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';

import type { Info, MctsTable } from './api';

/** What the page knows about the MCTS search of one position: its table and its lines by multipv. */
export interface MctsView {
  fen: string;
  table: MctsTable | null;
  /** The header of the table: the info event that carried it (nodes, nps, hashfull, time). */
  head: Info | null;
  lines: Map<number, Info>;
}

export function emptyMctsView(): MctsView {
  return { fen: '', table: null, head: null, lines: new Map() };
}

/** Takes an MCTS info event of the shown position `fen` into `view`. */
export function takeMctsInfo(view: MctsView, info: Info, fen: string): void {
  if (view.fen !== fen) {
    view.fen = fen;
    view.table = null;
    view.head = null;
    view.lines.clear();
  }
  if (info.moves) {
    view.table = info.moves;
    view.head = info;
  }
  view.lines.set(info.multipv, info);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const pct = (x: number, digits = 1) => `${(100 * x).toFixed(digits)}%`;

/** A visit count for the table: "2,041,337" up to 99,999,999 (the column's width), then "123.4M". */
export function formatVisits(n: number): string {
  return n < 1e8 ? n.toLocaleString('en') : `${(n / 1e6).toFixed(1)}M`;
}

/**
 * The table as HTML. Q is shown as the expected score of the side to move, (Q + 1) / 2 (Q is the
 * mean value in [-1, 1], 1 a win), the usual MCTS reading; the PV is the line whose first move is
 * the row's move, in SAN (the server sends one line per row).
 */
export function mctsTableHtml(view: MctsView, sanOf: (pv: string[]) => string[]): string {
  const t = view.table;
  if (!t) return '<p class="note">MCTS: waiting for the first playouts…</p>';
  const pvByMove = new Map<string, Info>();
  for (const l of view.lines.values()) if (l.pv[0]) pvByMove.set(l.pv[0], l);
  const rows = t.rows
    .map((r, i) => {
      const line = pvByMove.get(r.uci);
      const pv = line ? sanOf(line.pv.slice(0, 10)).join(' ') : '';
      const q = r.q === null ? '–' : pct((r.q + 1) / 2);
      // The search chose with the hints' values blended in: say so where it differs.
      const hinted = r.searchQ !== null && (r.q === null || Math.abs(r.searchQ - r.q) >= 0.00005);
      const qTitle = hinted ? ` title="with the alpha-beta hints' values: ${pct((r.searchQ! + 1) / 2)}"` : '';
      return (
        `<tr data-rank="${i + 1}" data-uci="${escapeHtml(r.uci)}" data-visits="${r.visits}" data-share="${r.share}" data-prior="${r.prior}"` +
        ` data-q="${r.q ?? ''}"><td class="move">${escapeHtml(r.san)}</td><td class="num" title="${r.visits.toLocaleString('en')} visits">${formatVisits(r.visits)}</td>` +
        `<td class="num share" style="--share:${(100 * r.share).toFixed(1)}%">${pct(r.share)}</td>` +
        `<td class="num"${qTitle}>${q}</td><td class="num">${pct(r.prior)}</td><td class="pv">${escapeHtml(pv)}</td></tr>`
      );
    })
    .join('');
  const others =
    t.others.moves > 0
      ? `<tr class="others" data-visits="${t.others.visits}" data-share="${t.others.share}"><td title="${t.others.moves} more moves">+${t.others.moves}</td>` +
        `<td class="num">${formatVisits(t.others.visits)}</td><td class="num">${pct(t.others.share)}</td><td colspan="3"></td></tr>`
      : '';
  const h = view.head;
  const stats = h
    ? `${t.totalVisits.toLocaleString('en')} visits at the root · ${(h.playouts ?? h.nodes).toLocaleString('en')} playouts · ` +
      `${(h.nps / 1000).toFixed(1)} k/s · depth ${h.depth}/${h.seldepth} · tree ${(h.hashfull / 10).toFixed(0)}% full` +
      (h.hashfull >= 1000 ? ' (the least-visited subtrees are being recycled)' : '')
    : '';
  return (
    `<div class="mcts-stats">${stats}</div>` +
    '<table id="mcts-table"><thead><tr><th>Move</th><th title="Playouts through the move">Visits</th>' +
    '<th title="Share of the root\'s visits">Share</th>' +
    '<th title="Q as the expected score of the side to move: (Q + 1) / 2, Q the mean value in [-1, 1]">Q (exp. score)</th>' +
    '<th title="The network\'s policy prior">Prior</th><th>PV</th></tr></thead>' +
    `<tbody>${rows}${others}</tbody></table>`
  );
}

/** Arrows for the (up to) three most visited root moves, purple (alpha-beta's are green), wider by share. */
export function mctsArrows(view: MctsView): DrawShape[] {
  if (!view.table) return [];
  return view.table.rows.slice(0, 3).flatMap((r, i) =>
    r.visits > 0
      ? [
          {
            orig: r.uci.slice(0, 2) as Key,
            dest: r.uci.slice(2, 4) as Key,
            brush: i === 0 ? 'purple' : 'pink',
            modifiers: { lineWidth: Math.round(4 + 10 * r.share) },
          },
        ]
      : [],
  );
}
