import type { CSSProperties, ReactNode } from 'react';

/**
 * One entry of a map legend: a swatch (its shape and size in `swatch`, its colour in `color` or in
 * the swatch's classes) and what it stands for, in words.
 */
export function LegendItem({
  swatch,
  color,
  children,
}: {
  swatch: string;
  color?: string;
  children: ReactNode;
}) {
  const style: CSSProperties | undefined = color ? { background: color } : undefined;
  return (
    <li className="flex items-center gap-1">
      <span aria-hidden="true" className={`inline-block ${swatch}`} style={style} />
      {children}
    </li>
  );
}
