import type { Load, LoadBy } from '@/domain/model';

/** `by:id`: one string per watched load, unique across both kinds of id. */
export const loadKey = (load: Pick<Load, 'by' | 'id'>) => `${load.by}:${load.id}`;

export function parseLoadKey(key: string): { by: LoadBy; id: string } | null {
  for (const by of ['external-id', 'load-number'] as const) {
    if (key.startsWith(`${by}:`) && key.length > by.length + 1) return { by, id: key.slice(by.length + 1) };
  }
  return null;
}
