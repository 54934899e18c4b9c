import type { PodCheck } from '@/contract/billing-api';

/** "Flagged: taken 38 km from the delivery stop; uploaded before arrival", or undefined with no flag. */
export function flagWords(check: PodCheck | undefined): string | undefined {
  if (!check || check.flags.length === 0) return undefined;
  return `flagged: ${check.flags.map((f) => f.text).join('; ')}`;
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
          className="rounded border border-amber-300 bg-amber-50 px-1 text-xs text-amber-950"
        >
          <span aria-hidden="true">⚑ </span>
          {f.text}
        </li>
      ))}
    </ul>
  );
}
