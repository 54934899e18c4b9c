/** A plain JSON object (not null, not a list): what a field of an answer may be looked into. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
