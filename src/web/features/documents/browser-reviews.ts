/**
 * Reviews made before they were kept on the server: this browser's localStorage held the addresses
 * of the documents marked reviewed, as JSON `[[url, reviewedAtMs], …]`. The inbox offers them once
 * for import, then forgets them.
 */
export const REVIEWED_STORAGE_KEY = 'haulview.documents.reviewed';

/** The addresses this browser marked reviewed, oldest first; none when storage is blocked or garbled. */
export function readBrowserReviews(): string[] {
  let text: string | null = null;
  try {
    text = window.localStorage.getItem(REVIEWED_STORAGE_KEY);
  } catch {
    // Storage blocked: nothing was kept.
  }
  if (text === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const urls = new Set<string>();
  for (const entry of parsed as unknown[])
    if (Array.isArray(entry) && typeof entry[0] === 'string') urls.add(entry[0]);
  return [...urls];
}

/** Removes the old marks: they were imported, or the user chose not to. */
export function forgetBrowserReviews(): void {
  try {
    window.localStorage.removeItem(REVIEWED_STORAGE_KEY);
  } catch {
    // Storage blocked: there was nothing to forget.
  }
}
