import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ROLES, type Role, type SessionState } from '@/contract/proxy-api';
import { type UserRecord } from '@/contract/users-api';
import { ApiError } from '../../data/api-client';
import { ErrorBanner } from '../../components/error-banner';
import { userQueries, useUserMutations } from './users-api';

const ROLE_LABEL: Record<Role, string> = { dispatcher: 'Dispatcher', broker: 'Broker', admin: 'Admin' };
const ROLE_HINT: Record<Role, string> = {
  dispatcher: 'watches loads on the map and board',
  broker: 'also reviews documents',
  admin: 'also manages users and webhooks',
};

/** The field a refusal names (the server's `details[0].path`), to show the message beside it. */
function fieldOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return undefined;
  const path = (error.details[0] as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : undefined;
}

const FIELD_LABEL: Record<string, string> = { name: 'Name', role: 'Role', password: 'Password' };

/** The refusal in words, with the field it names first: "Name must be 1 to 64 characters (got 0)". */
function messageOf(error: unknown): string {
  if (!(error instanceof ApiError)) return 'That did not work. Try again.';
  const detail = (error.details as { message?: string }[] | undefined)?.[0]?.message;
  if (detail === undefined) return error.message;
  const field = fieldOf(error);
  const label = field === undefined ? undefined : FIELD_LABEL[field];
  // A refused value reads with its field's name ("Name must be …"); a taken name or an unknown user is
  // a whole sentence ("A user named … already exists").
  if (label && error.code === 'invalid_request') return `${label} ${detail}`;
  return detail.charAt(0).toUpperCase() + detail.slice(1);
}

/** A password Haulview generated: shown here once, never again. */
function OnceShownPassword({
  name,
  password,
  onDone,
}: {
  name: string;
  password: string;
  onDone: () => void;
}) {
  return (
    <div role="status" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      <p>
        Password for <strong>{name}</strong>, shown once:{' '}
        <code className="select-all font-mono">{password}</code>
      </p>
      <p className="mt-1 text-ink-muted">Give it to them now; Haulview keeps only a hash of it.</p>
      <button type="button" onClick={onDone} className="mt-2 rounded border border-panel-line px-2 py-0.5">
        Done
      </button>
    </div>
  );
}

function AddUserForm({
  open,
  onAdded,
}: {
  open: boolean;
  onAdded: (name: string, password?: string) => void;
}) {
  const { add } = useUserMutations();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(open ? 'admin' : 'dispatcher');
  const [password, setPassword] = useState('');
  const ids = { name: useId(), role: useId(), password: useId(), error: useId() };
  const field = fieldOf(add.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    add.mutate(
      { name: name.trim(), role, ...(password ? { password } : {}) },
      {
        onSuccess: (answer) => {
          setName('');
          setPassword('');
          onAdded(answer.user.name, answer.password);
        },
      },
    );
  };
  const describedBy = (f: string) =>
    field === f ? { 'aria-invalid': true as const, 'aria-describedby': ids.error } : {};
  return (
    <form
      onSubmit={submit}
      aria-labelledby={`${ids.name}-title`}
      className="space-y-3 rounded border border-panel-line p-4"
    >
      <h2 id={`${ids.name}-title`} className="font-semibold">
        {open ? 'Add the first user (an admin)' : 'Add a user'}
      </h2>
      {open && (
        <p className="text-sm text-ink-muted">
          Adding the first user ends the open demo: from then on everyone logs in, and this browser goes on as
          the user you add.
        </p>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={64}
            autoComplete="off"
            {...describedBy('name')}
            className="mt-1 block rounded border border-panel-line px-2 py-1"
          />
        </label>
        <label className="max-w-full text-sm font-medium">
          Role
          <select
            // Its own name: the label around it would also read out the chosen option.
            aria-label="Role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            {...describedBy('role')}
            className="mt-1 block max-w-full rounded border border-panel-line px-2 py-1"
          >
            {ROLES.map((r) => (
              <option key={r} value={r} disabled={open && r !== 'admin'}>
                {ROLE_LABEL[r]} — {ROLE_HINT[r]}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium">
          Password <span className="font-normal text-ink-muted">(empty: one is generated)</span>
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            {...describedBy('password')}
            className="mt-1 block rounded border border-panel-line px-2 py-1"
          />
        </label>
        <button
          type="submit"
          disabled={add.isPending}
          className="rounded bg-status-selected px-3 py-1.5 font-medium text-white disabled:opacity-60"
        >
          {add.isPending ? 'Adding…' : 'Add user'}
        </button>
      </div>
      {add.error && (
        <p id={ids.error} role="alert" className="text-sm text-red-800">
          {messageOf(add.error)}
        </p>
      )}
    </form>
  );
}

function UserRow({ user, onPassword }: { user: UserRecord; onPassword: (password: string) => void }) {
  const { change } = useUserMutations();
  const pending = change.isPending;
  const disabled = user.disabledAt !== null;
  return (
    <tr className="border-t border-panel-line">
      <th scope="row" className="max-w-48 min-w-24 py-1.5 pr-3 text-left font-medium break-all">
        {user.name}
      </th>
      <td className="pr-4">
        <select
          aria-label={`Role of ${user.name}`}
          value={user.role}
          disabled={pending}
          onChange={(e) => change.mutate({ name: user.name, change: { role: e.target.value as Role } })}
          className="rounded border border-panel-line px-1 py-0.5"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </select>
      </td>
      <td className="pr-4">{disabled ? 'Disabled' : 'Active'}</td>
      {/* A phone's width goes to the actions. */}
      <td className="hidden pr-4 text-ink-muted sm:table-cell">{user.createdAt.slice(0, 10)}</td>
      <td className="flex flex-wrap gap-2 py-1">
        {/* The name is the row's: said to screen readers, not written again on the buttons. */}
        <button
          type="button"
          disabled={pending}
          aria-label={disabled ? `Enable ${user.name}` : `Disable ${user.name}`}
          onClick={() => change.mutate({ name: user.name, change: { disabled: !disabled } })}
          className="rounded border border-panel-line px-2 py-0.5"
        >
          {disabled ? 'Enable' : 'Disable'}
        </button>
        <button
          type="button"
          disabled={pending}
          onClick={() =>
            change.mutate(
              { name: user.name, change: { password: true } },
              { onSuccess: (answer) => answer.password && onPassword(answer.password) },
            )
          }
          aria-label={`New password for ${user.name}`}
          className="rounded border border-panel-line px-2 py-0.5"
        >
          New password
        </button>
        {change.error && (
          <span role="alert" className="text-sm text-red-800">
            {messageOf(change.error)}
          </span>
        )}
      </td>
    </tr>
  );
}

/** `/admin/users`: who may log in, with which role; what `npm run users` does, in the browser. */
export function UsersPage({ session }: { session: SessionState }) {
  const open = session.mode === 'open';
  const users = useQuery({ ...userQueries.list(), enabled: !open });
  const { refresh } = useUserMutations();
  const [shown, setShown] = useState<{ name: string; password: string } | undefined>();
  const done = () => {
    setShown(undefined);
    void refresh();
  };
  return (
    <div className="h-full overflow-auto">
      <div className="mx-auto max-w-4xl space-y-4 p-4">
        <h1 className="text-xl font-semibold">Users</h1>
        {shown && <OnceShownPassword name={shown.name} password={shown.password} onDone={done} />}
        <AddUserForm
          open={open}
          onAdded={(name, password) => {
            if (password) setShown({ name, password });
            // At once, not at Done: the first user ends the open demo, and the header says so.
            void refresh();
          }}
        />
        {!open && users.isError && <ErrorBanner error={users.error} onRetry={() => void users.refetch()} />}
        {!open && users.data && (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Users</caption>
              <thead>
                <tr className="text-left text-ink-muted">
                  <th scope="col" className="pr-4">
                    Name
                  </th>
                  <th scope="col" className="pr-4">
                    Role
                  </th>
                  <th scope="col" className="pr-4">
                    Status
                  </th>
                  <th scope="col" className="hidden pr-4 sm:table-cell">
                    Added
                  </th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.users.map((u) => (
                  <UserRow
                    key={u.name}
                    user={u}
                    onPassword={(password) => setShown({ name: u.name, password })}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}
