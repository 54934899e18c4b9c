import type { Load, LoadBy } from '@/domain/model';

/**
 * Each load's key, written once per id: a refresh makes a new object of each load that changed, and
 * its board row and map point each wrote the key again (two more strings per moved load, kept until
 * it moved again, and flattened again where a map looked them up).
 */
const written: Record<LoadBy, Map<string, string>> = { 'external-id': new Map(), 'load-number': new Map() };
/** Ids whose keys are kept, per kind; past it the keys are written afresh (a day of changing lists). */
const KEPT = 50_000;

/** `by:id`: one string per watched load, unique across both kinds of id. */
export function loadKey(load: Pick<Load, 'by' | 'id'>): string {
  const keys = written[load.by] as Map<string, string> | undefined;
  if (!keys) return `${load.by}:${load.id}`;
  let key = keys.get(load.id);
  if (key === undefined) {
    if (keys.size >= KEPT) keys.clear();
    keys.set(load.id, (key = `${load.by}:${load.id}`));
  }
  return key;
}

export function parseLoadKey(key: string): { by: LoadBy; id: string } | null {
  for (const by of ['external-id', 'load-number'] as const) {
    if (key.startsWith(`${by}:`) && key.length > by.length + 1) return { by, id: key.slice(by.length + 1) };
  }
  return null;
}
