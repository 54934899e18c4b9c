import type { Problem } from './webhook-problems';

/** Problems as the service named them: its message, its keyword, the values it allows. */
export function ProblemList({ id, problems }: { id?: string; problems: readonly Problem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul id={id} className="mt-1 space-y-1 text-sm text-status-silent">
      {problems.map((p, i) => (
        <li key={i}>
          {p.field && <code className="font-semibold">{p.field}:</code>}
          {p.field && ' '}
          {p.message}
          {p.keyword && ' '}
          {p.keyword && (
            <span className="ml-2 rounded bg-panel-sunk px-1 py-px font-mono text-xs text-ink-muted">
              {p.keyword}
            </span>
          )}
          {p.allowedValues && (
            <span className="block text-ink">
              Allowed values:{' '}
              {p.allowedValues.map((v, j) => (
                <span key={j}>
                  {j > 0 && ', '}
                  <code>{v}</code>
                </span>
              ))}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The service's own lines, behind a disclosure: the friendly message above them says what matters. */
export function ServiceDetails({ problems }: { problems: readonly Problem[] | undefined }) {
  if (!problems || problems.length === 0) return null;
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-ink-muted">Details</summary>
      <ProblemList problems={problems} />
    </details>
  );
}
