// The player's settings kept in localStorage: appearance (board theme, piece set, premoves),
// analysis choices (lines, face) and move sounds.

import type { AnalysisFace } from './api';
import { app } from './state';

// ---- Appearance -------------------------------------------------------------------------------

export const kThemes = ['brown', 'blue', 'green', 'grey', 'purple'];

/** Premoves (a move entered during Janus's turn, played when the turn comes): off by default. */
export function premovesOn(): boolean {
  return localStorage.getItem('janus.premoves') === 'true';
}
export const kPieceSets = ['cburnett', 'glyph'];

export function applyAppearance(theme: string, pieces: string): void {
  for (const t of kThemes) document.body.classList.toggle(`theme-${t}`, t === theme);
  for (const p of kPieceSets) document.body.classList.toggle(`pieces-${p}`, p === pieces);
  localStorage.setItem('janus.theme', theme);
  localStorage.setItem('janus.pieces', pieces);
  document.body.dataset.theme = theme;
  document.body.dataset.pieces = pieces;
}

/** What analyses (alpha-beta, MCTS or both): the player's last choice, the server's default until then. */
export function wantedAnalysisFace(): AnalysisFace {
  const v = localStorage.getItem('janus.analysisFace');
  return v === 'alphabeta' || v === 'mcts' || v === 'both' ? v : (app.info?.defaults.analysisFace ?? 'alphabeta');
}

/** The analysis settings every analysis request carries: lines and face. */
export function analysisOptions(): { multiPv: number; face: AnalysisFace } {
  return { multiPv: wantedMultiPv(), face: wantedAnalysisFace() };
}

/** Analysis lines (MultiPV) the player chose in the Lines menu; the server's default until then. */
export function wantedMultiPv(): number {
  const v = Number(localStorage.getItem('janus.multipv'));
  return v >= 1 && v <= 5 ? v : (app.info?.defaults.multiPv ?? 3);
}

// ---- Sounds ------------------------------------------------------------------------------------

type SoundKind = 'move' | 'capture' | 'check';

/** Move sounds (settings, `C`): on unless switched off. */
export function soundsOn(): boolean {
  return localStorage.getItem('janus.sounds') !== 'false';
}

let audio: AudioContext | null = null;

/**
 * A short synthesised sound for a move, a capture or a check (no sound files: Web Audio
 * oscillators). Each sound played is counted in data-sounds and named in data-last-sound on the
 * body (for the browser tests, which hear nothing).
 */
export function playSound(kind: SoundKind): void {
  if (!soundsOn()) return;
  const b = document.body.dataset;
  b.sounds = String(Number(b.sounds ?? '0') + 1);
  b.lastSound = kind;
  try {
    audio ??= new AudioContext();
    const tones: Record<SoundKind, [number, number, OscillatorType][]> = {
      move: [[520, 0.07, 'triangle']],
      capture: [[260, 0.05, 'square'], [180, 0.09, 'triangle']],
      check: [[660, 0.09, 'sine'], [880, 0.14, 'sine']],
    };
    let t = audio.currentTime;
    for (const [freq, length, type] of tones[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.18, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + length);
      t += length * 0.8;
    }
  } catch {
    // No audio output (or the browser refuses it before a user gesture): silence.
  }
}

/** The sound of a move from its SAN: check before capture before a plain move. */
export function soundOf(san: string): SoundKind {
  return /[+#]/.test(san) ? 'check' : san.includes('x') ? 'capture' : 'move';
}
