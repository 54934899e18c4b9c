import type { ParseIssue } from '@/contract/parse-issue';
import type { Diagnostics, DriftEntry } from '@/contract/diagnostics-api';

/** At most this many distinct (operation, path, kind) lines are kept; later new ones are counted only. */
const MAX_ENTRIES = 500;
/** Paths whose counted form is remembered (forgotten all at once past this). */
const PATHS_KEPT = 10_000;

/**
 * Aggregates what the parsers reported about the upstream's answers: a count per operation, path and
 * kind, with the first example and when it was last seen. It tells whoever integrates the real
 * service exactly where it departs from its documented schema.
 */
export function createDriftReport(now: () => number = Date.now) {
  const since = now();
  // By operation, path with indexes taken out, and kind: nested, so that counting a note again (the
  // puller counts the same notes of every load at every refresh) builds no key string.
  const entries = new Map<string, Map<string, Map<string, DriftEntry>>>();
  let size = 0;
  /** Paths as read (`details[3].stops`) → as counted (`details[].stops`): the same few come again and again. */
  let generalized = new Map<string, string>();
  let answersRead = 0;
  let dropped = 0;

  /** Counts an answer read and its notes. */
  function record(operation: string, issues: readonly ParseIssue[]): void {
    answersRead++;
    note(operation, issues);
  }

  /** Counts notes about no answer read (one load's answer refused as too large). */
  function note(operation: string, issues: readonly ParseIssue[]): void {
    const at = new Date(now()).toISOString();
    for (const issue of issues) {
      let path = generalized.get(issue.path);
      if (path === undefined) {
        if (generalized.size >= PATHS_KEPT) generalized = new Map();
        path = issue.path.replace(/\[\d+\]/g, '[]');
        generalized.set(issue.path, path);
      }
      // A field dropped from kept items is counted apart from the same departure that cost its item.
      const kind = issue.keptItem ? `${issue.kind}/kept` : issue.kind;
      const entry = entries.get(operation)?.get(path)?.get(kind);
      if (entry) {
        entry.count++;
        entry.lastSeen = at;
      } else if (size < MAX_ENTRIES) {
        size++;
        let ofOperation = entries.get(operation);
        if (!ofOperation) entries.set(operation, (ofOperation = new Map()));
        let ofPath = ofOperation.get(path);
        if (!ofPath) ofOperation.set(path, (ofPath = new Map()));
        ofPath.set(kind, {
          operation,
          path,
          kind: issue.kind,
          count: 1,
          skipped: issue.skipped,
          ...(issue.keptItem && { keptItem: true }),
          example: issue.message,
          firstSeen: at,
          lastSeen: at,
        });
      } else {
        dropped++;
      }
    }
  }

  function snapshot(): Diagnostics {
    const list = [...entries.values()]
      .flatMap((ofOperation) => [...ofOperation.values()])
      .flatMap((ofPath) => [...ofPath.values()])
      .sort((a, b) => b.count - a.count || a.path.localeCompare(b.path));
    if (dropped > 0) {
      list.push({
        operation: '*',
        path: '*',
        kind: 'not_recorded',
        count: dropped,
        skipped: false,
        example: `more than ${MAX_ENTRIES} distinct paths; these were counted only`,
        firstSeen: new Date(since).toISOString(),
        lastSeen: new Date(now()).toISOString(),
      });
    }
    return { since: new Date(since).toISOString(), answersRead, entries: list };
  }

  return { record, note, snapshot };
}

export type DriftReport = ReturnType<typeof createDriftReport>;
