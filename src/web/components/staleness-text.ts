import type { Staleness } from '@/domain/staleness';

/** How a load's staleness is said in words (never by colour alone), on the board and the load's page. */
export const STALENESS_TEXT: Record<Staleness, string> = {
  fresh: 'Reporting',
  stale: 'Stale',
  silent: 'Silent',
  unknown: 'No ping yet',
};

/** And in colour, stale and silent in bold. */
export const STALENESS_CLASS: Record<Staleness, string> = {
  fresh: 'text-status-fresh',
  stale: 'text-status-stale font-semibold',
  silent: 'text-status-silent font-semibold',
  unknown: 'text-status-unknown',
};
