import { DISABLED_LOOK } from '../../components/disabled-look';
import type { ReviewFilter } from './inbox-model';

/** `n` and the noun, in the singular or plural. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The look of the inbox's buttons. */
export const INBOX_BUTTON = `rounded border border-panel-line bg-panel px-2 py-0.5 text-sm hover:bg-panel-sunk ${DISABLED_LOOK}`;

/** How the list's name says which documents it shows. */
export const REVIEW_WORDS: Record<ReviewFilter, string> = {
  unreviewed: 'not reviewed',
  reviewed: 'reviewed',
  all: 'all',
};
