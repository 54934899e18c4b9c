import type { PodCheck } from '@/contract/billing-api';
import { isFaultFlag } from '@/domain/pod-flags';

/**
 * "Flagged: taken 38 km from the delivery stop; uploaded before arrival", or undefined with no flag;
 * an earlier trip's paper is said so, not flagged.
 */
export function flagWords(check: PodCheck | undefined): string | undefined {
  if (!check || check.flags.length === 0) return undefined;
  const faults = check.flags.filter(isFaultFlag).map((f) => f.text);
  const notes = check.flags.filter((f) => !isFaultFlag(f)).map((f) => f.text);
  return [...(faults.length > 0 ? [`flagged: ${faults.join('; ')}`] : []), ...notes].join('; ');
}

/**
 * A POD's or BOL's stop-check flags, each with its reason in words; `quiet` says when it was checked
 * and nothing is wrong (the preview), else nothing is shown for an unflagged document (the rows).
 */
export function CheckFlags({
  check,
  quiet = false,
  className = '',
}: {
  check: PodCheck | undefined;
  quiet?: boolean;
  className?: string;
}) {
  if (!check) return null;
  if (check.flags.length === 0)
    return quiet ? (
      <p className={`text-ink-muted ${className}`}>{check.kind} checked against its stop: nothing flagged</p>
    ) : null;
  return (
    <ul aria-label={`${check.kind} check flags`} className={`flex flex-wrap gap-1 ${className}`}>
      {check.flags.map((f) => (
        <li
          key={f.kind}
          data-flag={f.kind}
          className={`rounded border px-1 text-xs ${isFaultFlag(f) ? 'border-amber-300 bg-amber-50 text-amber-950' : 'border-slate-300 bg-slate-50 text-ink-muted'}`}
        >
          {isFaultFlag(f) && <span aria-hidden="true">⚑ </span>}
          {f.text}
        </li>
      ))}
    </ul>
  );
}
