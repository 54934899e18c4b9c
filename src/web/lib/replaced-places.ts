/**
 * The places at which `after` holds another item than `before` for the same key: what a refresh
 * replaced in a list that kept every item in its place. Undefined when the list changed otherwise
 * (another length, another key in some place), which its users handle as a new list.
 */
export function replacedPlaces<T>(
  before: readonly T[],
  after: readonly T[],
  keyOf: (item: T) => unknown,
): number[] | undefined {
  if (before.length !== after.length) return undefined;
  const places: number[] = [];
  for (let i = 0; i < after.length; i++) {
    const item = after[i] as T;
    const was = before[i] as T;
    if (item === was) continue;
    if (keyOf(item) !== keyOf(was)) return undefined;
    places.push(i);
  }
  return places;
}
