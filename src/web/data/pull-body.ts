import type { IncludeFlags } from '@/contract/proxy-api';
import { WrittenJson } from './api-client';

/** What a pull for the documents of many loads asks for: their documents, no other list, no extras. */
export const DOCUMENTS_INCLUDE: IncludeFlags = {
  locations: false,
  events: false,
  documents: true,
  comments: false,
  temperatures: false,
  extras: false,
};

/** A pull's body, as the proxy takes it (`/api/pull/by-…`). */
export interface PullBody {
  ids: readonly string[];
  include: IncludeFlags;
  since?: string;
}

/**
 * The ids of a watch list as JSON, written once per list: a board polls with the same 10,000 ids
 * every time, and only its cursor changes.
 */
const idsJson = new WeakMap<readonly string[], string>();

/** A watch list's ids as JSON, the same text each time for the same array. */
export function idsJsonOf(list: readonly string[]): string {
  let ids = idsJson.get(list);
  if (ids === undefined) idsJson.set(list, (ids = JSON.stringify(list)));
  return ids;
}

/** A pull's body as JSON, the same text `JSON.stringify(body)` writes. */
export function pullBodyJson(body: PullBody): string {
  const ids = idsJsonOf(body.ids);
  const { ids: _, ...others } = body;
  // `{"ids":0,…}`: the ids go where the 0 is.
  return `{"ids":${ids}${JSON.stringify({ ids: 0, ...others }).slice('{"ids":0'.length)}`;
}

/** A pull's body written out once: the text sent, and the body it was written from. */
export const writtenPull = (body: PullBody): WrittenJson => new WrittenJson(body, pullBodyJson(body));
