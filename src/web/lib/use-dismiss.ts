import { useEffect, useState, type RefObject } from 'react';

/**
 * Closes an open menu or panel as people expect: on Escape (focus back on `button`, so a keyboard
 * user is where they were), on a press outside `box` when given, and when `location` changes (a link
 * followed: the page it opened is what the user wants to see).
 */
export function useDismiss(
  open: boolean,
  setOpen: (open: boolean) => void,
  o: { button?: RefObject<HTMLElement | null>; box?: RefObject<HTMLElement | null>; location?: string },
): void {
  const { button, box, location } = o;
  const [openedAt, setOpenedAt] = useState(location);
  if (openedAt !== location) {
    setOpenedAt(location);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button?.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (box && !box.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [open, setOpen, button, box]);
}
