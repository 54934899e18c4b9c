import { memo, useRef, useState } from 'react';
import { formatCount } from '../../lib/format';

/** Chips in the status strip: enough for the usual statuses, few enough to stay on one or two lines. */
const MAX_CHIPS = 6;

/**
 * How many loads are in each status, at a glance: the most frequent as chips that filter the board by
 * their status (the Status select lists them all). Built from the board's counts alone, never the rows.
 */
export const StatusChips = memo(function StatusChips({
  counts,
  status,
  onToggle,
}: {
  counts: [string, number][];
  status: string | null;
  onToggle: (status: string) => void;
}) {
  // While the pointer is over the chips or the keyboard's focus is in them, they keep their order
  // and their set, and only their counts change: a refresh that re-ranks two statuses must not slide
  // another chip under a pointer about to click (one the refresh emptied reads 0 until it is let
  // go). The focus a click leaves on a chip does not hold them: the pointer's leaving lets go.
  const [held, setHeld] = useState<readonly string[] | null>(null);
  const inside = useRef({ pointer: false, focus: false, pressed: false });
  const ranked = counts.slice(0, MAX_CHIPS).map(([name]) => name);
  const names = held ?? ranked;
  const hold = (where: 'pointer' | 'focus', on: boolean) => {
    inside.current[where] = on;
    const { pointer, focus } = inside.current;
    if (!pointer && !focus) setHeld(null);
    else if (on) setHeld((h) => h ?? names);
  };
  const countOf = new Map(counts);
  const top = names.map((name): [string, number] => [name, countOf.get(name) ?? 0]);
  // The board's own filter stays in sight when it is a rarer status (or one a refresh emptied).
  const extra: [string, number] | undefined =
    status === null || names.includes(status) ? undefined : [status, countOf.get(status) ?? 0];
  const chips = extra ? [...top, extra] : top;
  // Statuses with loads but no chip; the select lists them all.
  const hidden = counts.filter(([name]) => !names.includes(name) && name !== status).length;
  if (chips.length === 0) return null;
  return (
    <div
      role="group"
      aria-label="Loads by status"
      className="flex flex-wrap items-center gap-1 text-xs"
      onPointerEnter={() => hold('pointer', true)}
      onPointerLeave={() => hold('pointer', false)}
      onPointerDown={() => (inside.current.pressed = true)}
      onFocus={() => {
        const { pressed } = inside.current;
        inside.current.pressed = false;
        if (!pressed) hold('focus', true);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) hold('focus', false);
      }}
    >
      {chips.map(([name, n]) => {
        const pressed = name === status;
        return (
          <button
            key={name}
            type="button"
            aria-pressed={pressed}
            onClick={(e) => {
              // The extra chip goes once it is let go: the keyboard's focus moves to the first chip,
              // not to the page's start.
              if (extra && name === extra[0])
                (e.currentTarget.parentElement?.querySelector('button') as HTMLButtonElement | null)?.focus();
              onToggle(name);
            }}
            className={`rounded-full border px-2 py-0.5 whitespace-nowrap ${
              // Pressed is told by its ring and weight too, not by its colour alone.
              pressed
                ? 'border-status-selected bg-blue-100 font-semibold text-status-selected ring-1 ring-status-selected'
                : 'border-panel-line bg-panel-sunk hover:border-ink-faint'
            }`}
          >
            {name} <span className="tabular-nums">{formatCount(n)}</span>
          </button>
        );
      })}
      {hidden > 0 && <span className="text-ink-muted">and {hidden} more in Status</span>}
    </div>
  );
});
