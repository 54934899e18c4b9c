import { Link } from 'wouter';
import { ROLES, type SessionState } from '@/contract/proxy-api';
import { useSessionChange } from '../../data/session-queries';

const ROLE_LABEL = { dispatcher: 'Dispatcher', broker: 'Broker', admin: 'Admin' } as const;

/** Who is logged in, and the way out; in the header. */
export function SessionMenu({ session }: { session: SessionState }) {
  const change = useSessionChange();
  const user = session.user;
  if (user === null || session.mode === 'open') return null;
  return (
    <div className="ml-auto flex items-center gap-3 text-sm">
      <span>
        <span className="font-medium">{user.name}</span>
        <span className="text-ink-faint"> · {ROLE_LABEL[user.role]}</span>
      </span>
      <button
        type="button"
        onClick={() => change.mutate({ kind: 'logout' })}
        disabled={change.isPending}
        className="rounded border border-white/30 px-2 py-0.5 hover:bg-white/10"
      >
        Log out
      </button>
    </div>
  );
}

/**
 * Open demo mode, said plainly: nobody logs in, everyone on this machine acts as admin, and each
 * role's view is one click away. Adding the first user ends it.
 */
export function OpenModeBanner({ session }: { session: SessionState }) {
  const change = useSessionChange();
  if (session.mode !== 'open' || session.user === null) return null;
  const current = session.user.role;
  return (
    <div
      role="region"
      aria-label="Open demo mode"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-amber-300 bg-amber-50 px-4 py-1.5 text-sm text-amber-950"
    >
      <span>
        <strong>Open demo:</strong> no users yet, so anyone on this machine acts as admin.{' '}
        <Link href="/admin/users" className="underline">
          Add the first user
        </Link>{' '}
        to require logins.
      </span>
      <span className="flex items-center gap-1" role="group" aria-label="View as">
        View as
        {ROLES.map((role) => (
          <button
            key={role}
            type="button"
            aria-pressed={role === current}
            disabled={change.isPending}
            onClick={() => change.mutate({ kind: 'viewAs', role })}
            className={`rounded px-2 py-0.5 ${role === current ? 'bg-amber-900 text-white' : 'border border-amber-400 hover:bg-amber-100'}`}
          >
            {ROLE_LABEL[role]}
          </button>
        ))}
      </span>
    </div>
  );
}
