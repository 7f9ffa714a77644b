// Small helpers of the page: element lookup, toasts, HTML escaping, score and clock text, and
// chessops conversions for display.

import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { parseUci } from 'chessops/util';

import type { Color, Score } from './api';

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export function toast(html: string, kind: 'info' | 'error' = 'info', ms = 4000): HTMLElement {
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.innerHTML = html;
  const close = document.createElement('button');
  close.textContent = '×';
  close.title = 'Close';
  close.onclick = () => el.remove();
  el.appendChild(close);
  $('toasts').appendChild(el);
  if (ms > 0) setTimeout(() => el.remove(), ms);
  return el;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A score as the page shows it everywhere (lines, eval bar, hint, E), White's view: "+0.34",
 * "-1.20", "#3", "#-2"; a mate on the board "1-0 #" / "0-1 #"; a position in the tablebases
 * "TB win · DTZ 3", with the mate distance when the search knows it ("TB win · DTZ 3 · #11"),
 * "TB draw", "TB loss · DTZ 4 · #-9".
 */
export function formatScore(s: Score | null | undefined): string {
  if (!s) return '–';
  if (s.mate === 0) {
    const whiteMated = s.mated ? s.mated === 'white' : (s.cp ?? 0) < 0;
    return s.mated || s.cp ? `${whiteMated ? '0-1' : '1-0'} #` : '#';
  }
  const mate = s.mate !== undefined ? `#${s.mate}` : '';
  if (s.tb) return [`TB ${s.tb.result}`, s.tb.dtz !== undefined ? `DTZ ${s.tb.dtz}` : '', mate].filter(Boolean).join(' · ');
  if (mate) return mate;
  const v = (s.cp ?? 0) / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

/** Whether the page runs on a touch screen without a mouse (a phone): "tap" instead of "press". */
export function touchScreen(): boolean {
  return window.matchMedia('(hover: none) and (pointer: coarse)').matches;
}

export function formatClock(ms: number): string {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const rest = `${m}:${String(s % 60).padStart(2, '0')}`;
  return ms < 10000 ? `${rest}.${Math.floor((ms % 1000) / 100)}` : rest;
}

export function chessFromFen(fen: string): Chess | null {
  const setup = parseFen(fen);
  if (setup.isErr) return null;
  const pos = Chess.fromSetup(setup.value);
  return pos.isErr ? null : pos.value;
}

/** SAN of a UCI principal variation from `fen` (chessops), for display. */
export function pvToSan(fen: string, pv: string[]): string[] {
  const pos = chessFromFen(fen);
  const out: string[] = [];
  if (!pos) return out;
  for (const u of pv) {
    const m = parseUci(u);
    if (!m || !pos.isLegal(m)) break;
    out.push(makeSan(pos, m));
    pos.play(m);
  }
  return out;
}

export function opposite(c: Color): Color {
  return c === 'white' ? 'black' : 'white';
}
