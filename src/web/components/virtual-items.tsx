import type { Virtualizer } from '@tanstack/react-virtual';
import type { LiHTMLAttributes, ReactNode } from 'react';

/** What a row's `<li>` carries beyond its place: data attributes, focus, its own classes. */
export type VirtualItemProps = LiHTMLAttributes<HTMLLIElement> & Record<`data-${string}`, string | undefined>;

/**
 * The rows a virtualizer shows now, each an `<li>` at its place, measured as it renders, and telling
 * screen readers its place in the whole list (the rows off screen are not in the document).
 */
export function VirtualItems<T, S extends Element>({
  virtualizer,
  items,
  className = '',
  row,
  itemProps,
}: {
  virtualizer: Virtualizer<S, Element>;
  items: readonly T[];
  className?: string;
  row: (item: T, index: number) => ReactNode;
  itemProps?: (item: T, index: number) => VirtualItemProps;
}) {
  const margin = virtualizer.options.scrollMargin;
  return virtualizer.getVirtualItems().map((v) => {
    const item = items[v.index] as T;
    const { className: own = '', ...props } = itemProps?.(item, v.index) ?? {};
    return (
      <li
        {...props}
        key={v.key}
        data-index={v.index}
        ref={virtualizer.measureElement}
        aria-setsize={items.length}
        aria-posinset={v.index + 1}
        className={`absolute top-0 left-0 w-full ${className} ${own}`}
        // `start` counts from the scroll box's top; the list itself starts `scrollMargin` below it.
        style={{ transform: `translateY(${v.start - margin}px)` }}
      >
        {row(item, v.index)}
      </li>
    );
  });
}
