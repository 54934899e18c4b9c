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
    <div className="ml-auto flex min-w-0 items-center gap-3 text-sm">
      <span className="flex min-w-0">
        {/* A name may be 64 characters with no space: cut short, whole on hover, Log out in view. */}
        <span className="max-w-[12rem] truncate font-medium" title={user.name}>
          {user.name}
        </span>
        <span className="shrink-0 whitespace-pre text-ink-faint"> · {ROLE_LABEL[user.role]}</span>
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
 * Open demo mode, said plainly in the header (not a bar of its own, which cost the board a row):
 * nobody logs in, everyone on this machine acts as admin, and each role's view is one click away.
 * Adding the first user ends it.
 */
export function OpenModeBanner({ session }: { session: SessionState }) {
  const change = useSessionChange();
  if (session.mode !== 'open' || session.user === null) return null;
  const current = session.user.role;
  return (
    <div
      role="region"
      aria-label="Open demo mode"
      // A row of its own on a phone; on a wider screen, at the header's end.
      className="order-last flex w-full flex-wrap items-center gap-x-2 gap-y-1 pb-1 text-xs md:order-none md:ml-auto md:w-auto md:justify-end md:pb-0"
    >
      <span
        className="rounded bg-amber-300 px-1.5 py-0.5 font-semibold text-amber-950"
        title="No users yet: anyone on this machine acts as admin."
      >
        {/* The rest is in the title and the pressed role where the header has no room for it. */}
        Open demo<span className="hidden 2xl:inline">: you act as admin</span>
      </span>
      <span className="flex items-center gap-1" role="group" aria-label="View as">
        <span className="text-ink-faint">View as</span>
        {ROLES.map((role) => (
          <button
            key={role}
            type="button"
            aria-pressed={role === current}
            disabled={change.isPending}
            onClick={() => change.mutate({ kind: 'viewAs', role })}
            className={`rounded px-1.5 py-0.5 ${role === current ? 'bg-amber-300 text-amber-950' : 'border border-white/30 hover:bg-white/10'}`}
          >
            {ROLE_LABEL[role]}
          </button>
        ))}
      </span>
      <Link
        href="/admin/users"
        title="No users yet: anyone on this machine acts as admin. Adding the first user ends the open demo."
        // Where the header has room: below that, the Users link in the nav leads to the same page.
        className="hidden text-white underline 2xl:inline"
      >
        Add the first user
      </Link>
    </div>
  );
}
