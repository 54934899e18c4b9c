import type { Virtualizer } from '@tanstack/react-virtual';
import type { ReactNode } from 'react';

/**
 * The rows a virtualizer shows now, each an `<li>` at its place, measured as it renders, and telling
 * screen readers its place in the whole list (the rows off screen are not in the document).
 */
export function VirtualItems<T, S extends Element>({
  virtualizer,
  items,
  className = '',
  row,
}: {
  virtualizer: Virtualizer<S, Element>;
  items: readonly T[];
  className?: string;
  row: (item: T, index: number) => ReactNode;
}) {
  return virtualizer.getVirtualItems().map((v) => (
    <li
      key={v.key}
      data-index={v.index}
      ref={virtualizer.measureElement}
      aria-setsize={items.length}
      aria-posinset={v.index + 1}
      className={`absolute top-0 left-0 w-full ${className}`}
      style={{ transform: `translateY(${v.start}px)` }}
    >
      {row(items[v.index] as T, v.index)}
    </li>
  ));
}
