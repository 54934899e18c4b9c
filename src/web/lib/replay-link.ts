import { formatLoadParam, loadKey, parseLoadParam, type LoadRef } from './load-ref';

/**
 * A replay's link (`/replay?loads=e:1,n:LN2&t=…&speed=60`), written by the board and a load's page
 * and read by the replay: the loads, the instant and the speed, so a colleague opens the same moment.
 */

/** The most loads one replay draws: each is a trail, a chart and a query of its own. */
export const MAX_REPLAY_LOADS = 10;

export function replayHref(refs: readonly LoadRef[], options: { t?: number; speed?: number } = {}): string {
  const params = [
    `loads=${refs
      .slice(0, MAX_REPLAY_LOADS)
      .map((r) => encodeURIComponent(formatLoadParam(r)).replace(/%3A/g, ':'))
      .join(',')}`,
  ];
  if (options.t !== undefined) params.push(`t=${new Date(Math.round(options.t)).toISOString()}`);
  if (options.speed !== undefined) params.push(`speed=${options.speed}`);
  return `/replay?${params.join('&')}`;
}

/** The loads of `?loads=`: each `e:` or `n:` id checked, repeats and those past the most left out. */
export function parseReplayLoads(text: string | null): LoadRef[] {
  const refs: LoadRef[] = [];
  const seen = new Set<string>();
  for (const piece of (text ?? '').split(',')) {
    const ref = parseLoadParam(piece.trim());
    if (!ref || seen.has(loadKey(ref))) continue;
    seen.add(loadKey(ref));
    refs.push(ref);
    if (refs.length === MAX_REPLAY_LOADS) break;
  }
  return refs;
}
