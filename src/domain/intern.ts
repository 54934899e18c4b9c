/**
 * One string for each text of a small vocabulary that many held items repeat (a status event's
 * name, a note's message): the puller holds every watched load's current trip, and a copy of
 * "Arrived at pickup" in each event is one more object for every major collection to mark.
 * Bounded, so a vocabulary that turns out to be free text costs a fixed table, not a leak: past
 * the bound, or for a long text, the text comes back as it was given.
 */
export interface Interner {
  (text: string): string;
  (text: string | undefined): string | undefined;
  /** How many texts the table holds. */
  readonly size: number;
}

/** Longer texts are rarely repeated word for word. */
const MAX_LENGTH = 80;

/** A table of its own for one vocabulary, of at most `max` texts. */
export function interner(max: number): Interner {
  const texts = new Map<string, string>();
  const intern = ((text: string | undefined) => {
    if (text === undefined || text.length > MAX_LENGTH) return text;
    const kept = texts.get(text);
    if (kept !== undefined) return kept;
    if (texts.size < max) texts.set(text, text);
    return text;
  }) as Interner;
  Object.defineProperty(intern, 'size', { get: () => texts.size });
  return intern;
}

/** Status events' names and codes. */
export const intern = interner(4096);
