import { useEffect, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** The focus trap of a modal `box`: Tab from its last control goes to the first, Shift+Tab the other way. */
export function trapTab(event: KeyboardEvent, box: HTMLElement | null): void {
  const items = [...(box?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !(active instanceof Node) || !box?.contains(active);
  if (event.shiftKey && (outside || active === first || active === box)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (outside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Focus moves into a modal `box` (to `first`) when it opens and goes back to where it was when it
 * closes; focus that leaves it meanwhile (a click behind it, a screen reader's jump) is brought back.
 */
export function useModalFocus(
  box: RefObject<HTMLElement | null>,
  first: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    first.current?.focus();
    const keepInside = (event: FocusEvent) => {
      const inside = box.current;
      if (inside && event.target instanceof Node && !inside.contains(event.target)) first.current?.focus();
    };
    document.addEventListener('focusin', keepInside);
    return () => {
      document.removeEventListener('focusin', keepInside);
      if (before?.isConnected) before.focus();
    };
  }, [box, first]);
}
