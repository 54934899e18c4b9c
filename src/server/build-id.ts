import { createHash } from 'node:crypto';
import { BUILD_META } from '@/contract/proxy-api';

/**
 * The build's id, from its HTML pages: they name the hashed entry chunks, whose names change with
 * anything they load, so two builds of the same source agree (several instances of one release
 * send one id) and any change to the page's code gives another.
 */
export function buildIdOf(pages: readonly string[]): string {
  const hash = createHash('sha256');
  for (const page of pages) hash.update(page).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** The page with the build's id in a meta tag, for the tab to compare with the answers' header. */
export function withBuildMeta(html: string, id: string): string {
  const meta = `<meta name="${BUILD_META}" content="${id}">`;
  const head = /<\/head>/i.exec(html);
  if (head) return html.slice(0, head.index) + meta + html.slice(head.index);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return html.slice(0, at) + meta + html.slice(at);
}
