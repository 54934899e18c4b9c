import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../data/api-client';
import { takeSessionEnded, useSessionChange } from '../../data/session-queries';

/** "a second", "12 seconds", or "a few seconds" when the server did not say. */
function waitWords(retryAfter: string | undefined): string {
  if (retryAfter === undefined) return 'a few seconds';
  return Number(retryAfter) === 1 ? 'a second' : `${retryAfter} seconds`;
}

export function loginMessage(error: unknown): string | undefined {
  if (!error) return undefined;
  if (!(error instanceof ApiError)) return 'Logging in failed. Try again.';
  switch (error.code) {
    case 'wrong_credentials':
      return 'Wrong username or password.';
    case 'too_many_attempts':
      return `Too many failed logins. Try again in ${waitWords(error.retryAfter)}.`;
    case 'store_unavailable':
      return 'Haulview’s database does not answer, so nobody can log in right now. Try again shortly.';
    case 'network':
      return 'Haulview’s server cannot be reached. Is it running?';
    default:
      return error.message;
  }
}

/** The login screen: a username and password for a session cookie the page itself cannot read. */
export function LoginPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();
  const [ended] = useState(takeSessionEnded);
  const login = useSessionChange();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() && password && !login.isPending)
      login.mutate({ kind: 'login', username: username.trim(), password });
  };
  const message = loginMessage(login.error);
  const invalid = message ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};
  return (
    <main className="flex h-full items-center justify-center bg-panel-sunk p-4">
      <form
        onSubmit={submit}
        className="w-full max-w-sm space-y-4 rounded-lg border border-panel-line bg-panel p-6 shadow-sm"
      >
        <h1 className="text-xl font-semibold">Log in to Haulview</h1>
        {ended && (
          <p role="status" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm">
            Your session ended (you logged out in another tab, an admin changed your account, or it expired).
            Log in again: what you did as it ended was not saved.
          </p>
        )}
        <p className="text-sm text-ink-muted">
          This dashboard shows a partner’s live freight data. Log in with the user your admin gave you.
        </p>
        <label className="block text-sm font-medium">
          Username
          <input
            name="username"
            autoComplete="username"
            autoFocus
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            {...invalid}
            className="mt-1 block w-full rounded border border-panel-line px-2 py-1.5"
          />
        </label>
        <label className="block text-sm font-medium">
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...invalid}
            className="mt-1 block w-full rounded border border-panel-line px-2 py-1.5"
          />
        </label>
        {message && (
          <p id={errorId} role="alert" className="text-sm text-red-800">
            {message}
          </p>
        )}
        <button
          type="submit"
          disabled={login.isPending}
          className="w-full rounded bg-status-selected px-3 py-2 font-medium text-white disabled:opacity-60"
        >
          {login.isPending ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
