import { useEffect, useState, type RefObject } from 'react';

/** The nearest ancestor that scrolls: a margin around the screen is a margin around it. */
function scrollParent(element: Element): Element | null {
  for (let e = element.parentElement; e; e = e.parentElement) {
    const { overflowY } = getComputedStyle(e);
    if (overflowY === 'auto' || overflowY === 'scroll') return e;
  }
  return null;
}

/**
 * Whether an element is on the screen or within `margin` of it, once it has been: what a long list
 * below the fold holds is made as the reader scrolls toward it, not with the page. True from the
 * start when `wait` is false, or where the browser has no IntersectionObserver.
 */
export function useNearScreen(ref: RefObject<Element | null>, wait: boolean, margin = 800): boolean {
  const [near, setNear] = useState(() => !wait || typeof IntersectionObserver === 'undefined');
  // Again when `wait` changes: the element may not have been there while there was nothing to wait for.
  useEffect(() => {
    const element = ref.current;
    if (near || !wait || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        setNear(true);
      },
      { root: scrollParent(element), rootMargin: `${margin}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, wait, ref, margin]);
  return near || !wait;
}
