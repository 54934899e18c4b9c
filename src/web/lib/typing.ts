/**
 * Whether a key press lands in a field the user types in: a page's single-key shortcuts leave such
 * keys to the field.
 */
export const typing = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable);
