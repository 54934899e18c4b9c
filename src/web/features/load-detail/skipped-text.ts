import type { ParseIssue, ParseIssueKind } from '@/contract/parse-issue';

/** The service's lists and objects by the names a user knows them. */
const ITEM_NAMES: Readonly<Record<string, string>> = {
  locations: 'Ping',
  events: 'Status event',
  comments: 'Comment',
  documents: 'Document',
  temperatures: 'Reading',
  latestLocation: 'Latest location',
  latestStatus: 'Latest status',
  latestTemperature: 'Latest reading',
  stops: 'Stop',
};

/** What was wrong with a field, as the end of a sentence ("its lat …"). */
const KIND_WORDS: Readonly<Record<ParseIssueKind, string>> = {
  not_json: 'is not JSON',
  missing: 'is missing',
  null_where_required: 'is empty (null)',
  wrong_type: 'is of the wrong type',
  invalid_value: 'has a value it cannot have',
  unknown_field: 'is not in the documented interface',
  wrapped_item: 'is wrapped one level deeper than documented',
  missing_id: 'has no id',
  bad_coordinate: 'is not a coordinate',
  bad_time: 'has no time Haulview can read',
  unknown_zone: 'names a time zone Haulview does not know',
  too_large: 'was too large to read',
};

const PATH = /^(?:details\[\d+\]\.)?([A-Za-z_$][\w$]*)(?:\[(\d+)\])?(?:\.(.+))?$/;

/** The item a note is about: `locations[3]`, `latestStatus`; the path itself when it names none. */
export function itemOf(path: string): string {
  const m = PATH.exec(path);
  if (!m) return path;
  return m[2] === undefined ? (m[1] as string) : `${m[1]}[${m[2]}]`;
}

/**
 * A skipped item or a dropped field in a user's words: "Ping 2 skipped: its lat is not a
 * coordinate", "Document 1 kept without its type, which is of the wrong type".
 */
export function skippedText(issue: ParseIssue): string {
  const m = PATH.exec(issue.path);
  const what = KIND_WORDS[issue.kind];
  if (!m) return `${issue.path || 'The answer'} ${what}`;
  const [, list, index, field] = m as unknown as [string, string, string | undefined, string | undefined];
  const name = ITEM_NAMES[list] ?? list;
  const item = index === undefined ? name : `${name} ${Number(index) + 1}`;
  if (issue.keptItem && field) return `${item} kept without its ${field}, which ${what}`;
  return field ? `${item} skipped: its ${field} ${what}` : `${item} skipped: it ${what}`;
}

/** The notes of what was lost, and how many items were skipped and fields dropped. */
export function skippedTally(issues: readonly ParseIssue[]): {
  notes: ParseIssue[];
  items: number;
  fields: number;
} {
  const notes = issues.filter((i) => i.skipped);
  const items = new Set(notes.filter((i) => !i.keptItem).map((i) => itemOf(i.path))).size;
  const fields = notes.filter((i) => i.keptItem).length;
  return { notes, items, fields };
}

/** The summary line: "2 items skipped and 3 fields dropped because they could not be read". */
export function skippedSummary(items: number, fields: number): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (fields === 0) return `${count(items, 'item', 'items')} skipped because they could not be read`;
  if (items === 0)
    return `${count(fields, 'field', 'fields')} dropped because they could not be read; their items are kept`;
  return `${count(items, 'item', 'items')} skipped and ${count(fields, 'field', 'fields')} dropped because they could not be read`;
}
