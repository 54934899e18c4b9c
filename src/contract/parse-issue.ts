import * as z from 'zod/mini';
import './zod-locale';

/** What kind of departure from the documented interface a note is about. */
export const PARSE_ISSUE_KINDS = [
  'not_json',
  'missing',
  'null_where_required',
  'wrong_type',
  'invalid_value',
  'unknown_field',
  'wrapped_item',
  'missing_id',
  'bad_coordinate',
  'bad_time',
  'unknown_zone',
  /** The answer was larger than the proxy reads, even for this load alone: the load was not refreshed. */
  'too_large',
] as const;
export type ParseIssueKind = (typeof PARSE_ISSUE_KINDS)[number];

/**
 * One place where an answer departed from the documented interface. `skipped` says whether data was
 * dropped because of it (an item, a field, a load) or merely noted (an undocumented field kept as is).
 * The proxy sends a load's notes with it (`LoadView.issues`).
 */
export const ParseIssue = z.strictObject({
  /** JSON path into the answer, e.g. `details[3].locations[12].lat`. */
  path: z.string(),
  kind: z.enum(PARSE_ISSUE_KINDS),
  message: z.string(),
  skipped: z.boolean(),
  /** Only this field was dropped: its item was kept without it. */
  keptItem: z.optional(z.boolean()),
});
export type ParseIssue = z.infer<typeof ParseIssue>;

/** Parse options that make zod report the offending input, which `issuesFromZod` reads. */
export const REPORT_INPUT = { reportInput: true } as const;

export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

/** Turns a zod error (of a classic or a mini schema) into issues with JSON paths below `base`. */
export function issuesFromZod(error: z.core.$ZodError, base: string, skipped: boolean): ParseIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.reduce<string>(
      (p, k) => joinPath(p, typeof k === 'number' ? k : String(k)),
      base,
    );
    // Parse with `{ reportInput: true }` so that the offending input is known here.
    const received = (issue as { input?: unknown }).input;
    let kind: ParseIssueKind = 'invalid_value';
    if (received === null) kind = 'null_where_required';
    else if (received === undefined) kind = 'missing';
    else if (issue.code === 'invalid_type' || issue.code === 'invalid_union') kind = 'wrong_type';
    return { path, kind, message: issue.message, skipped };
  });
}
