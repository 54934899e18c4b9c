import { useId } from 'react';
import { viewerZoneName, type TimeZoneChoice } from '../lib/time-format';
import { setTimeZoneChoice, useTimeZoneChoice } from '../lib/time-zone-choice';

/**
 * "Times in: driver's zone | my zone (CST)": one choice for every time on every page, kept in this
 * browser.
 */
export function TimeZoneSwitch({ className }: { className?: string }) {
  const choice = useTimeZoneChoice();
  const labelId = useId();
  const options: [TimeZoneChoice, string][] = [
    ['driver', 'Driver’s zone'],
    ['mine', `My zone (${viewerZoneName()})`],
  ];
  return (
    <div
      role="group"
      aria-labelledby={labelId}
      className={`flex flex-wrap items-center gap-x-2 gap-y-1 ${className ?? ''}`}
    >
      <span id={labelId} className="whitespace-nowrap text-ink-muted">
        Times in
      </span>
      <div className="flex flex-wrap">
        {options.map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={choice === value}
            onClick={() => setTimeZoneChoice(value)}
            className={`border border-panel-line px-2 py-0.5 whitespace-nowrap first:rounded-l last:rounded-r ${
              choice === value ? 'bg-ink text-white' : 'bg-panel hover:bg-panel-sunk'
            }`}
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}
