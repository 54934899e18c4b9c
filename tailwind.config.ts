import type { Config } from 'tailwindcss';

/**
 * The theme: status colours (what a dispatcher must tell apart at a glance) and the spacing of the
 * dense panels. Loaded by `src/web/styles.css` through `@config`.
 */
export const statusColors = {
  fresh: '#15803d',
  stale: '#b45309',
  silent: '#b91c1c',
  unknown: '#6b7280',
  /** A delivered or cancelled load: its ping age is no alarm (domain/attention.ts). */
  finished: '#cbd5e1',
  selected: '#1d4ed8',
  accuracy: '#2563eb',
  /** Where along a trail a document or a comment was sent from. */
  document: '#7c3aed',
  comment: '#0f766e',
} as const;

/**
 * The dot in a load's marker: where in its trip the load is (src/domain/status-phase.ts). The marker's
 * own colour is how long since its last ping (statusColors); a status that says no phase has no dot.
 */
export const phaseColors = {
  planned: '#ffffff',
  pickup: '#a78bfa',
  transit: '#38bdf8',
  delivery: '#facc15',
  delivered: '#111827',
} as const;

export default {
  content: ['./index.html', './src/web/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        status: statusColors,
        ink: { DEFAULT: '#111827', muted: '#4b5563', faint: '#9ca3af' },
        panel: { DEFAULT: '#ffffff', sunk: '#f3f4f6', line: '#e5e7eb' },
      },
      spacing: {
        row: '2.25rem',
        panel: '22rem',
      },
      fontFamily: {
        sans: ['system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'sans-serif'],
      },
    },
  },
} satisfies Config;
