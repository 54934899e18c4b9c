import { POD_FLAG_KINDS, type PodCheck } from '@/contract/billing-api';

/**
 * The weight of a check's worst flag, for sorting: lower is worse; a check with no flag last. Apart
 * from the checks themselves, which read stops with the server's lenient reader: the page sorts by
 * it without carrying that reader.
 */
export function flagRank(check: Pick<PodCheck, 'flags'>): number {
  const ranks = check.flags.map((f) => POD_FLAG_KINDS.indexOf(f.kind));
  return ranks.length === 0 ? POD_FLAG_KINDS.length : Math.min(...ranks);
}

/** Whether a flag holds payment: an earlier trip's paper (`earlier-trip`) is only told apart. */
export const isFaultFlag = (flag: Pick<PodCheck['flags'][number], 'kind'>) => flag.kind !== 'earlier-trip';
