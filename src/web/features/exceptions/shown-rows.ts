import type { ExceptionRow } from './exceptions-model';

/**
 * What a row shows, without the load object it was made from, for tests that compare lists: field by
 * field, as a row's evidence is read through a getter and its own fields include its judgement.
 */
const shownRow = (r: ExceptionRow) => ({
  key: r.key,
  ref: r.ref,
  label: r.label,
  exception: r.exception,
  evidence: r.evidence,
  driver: r.driver,
  phone: r.phone,
  handled: r.handled,
});

/** Both lists of an `exceptionRows` answer as `shownRow`s. */
export const shownRows = (rows: { open: ExceptionRow[]; handled: ExceptionRow[] }) => ({
  open: rows.open.map(shownRow),
  handled: rows.handled.map(shownRow),
});
