import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { SessionState } from '@/contract/proxy-api';
import { apiPost, ApiError } from '../../data/api-client';

/** The login screen: exchanges the dashboard token for a session cookie the browser cannot read. */
export function LoginPage() {
  const client = useQueryClient();
  const [token, setToken] = useState('');
  const errorId = useId();
  const login = useMutation({
    mutationFn: (value: string) => apiPost('/api/session', { token: value }, SessionState),
    onSuccess: () => client.invalidateQueries(),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() && !login.isPending) login.mutate(token.trim());
  };
  const error = login.error;
  const message =
    error instanceof ApiError && error.code === 'wrong_token'
      ? 'That is not the dashboard token.'
      : error instanceof ApiError && error.code === 'too_many_attempts'
        ? 'Too many wrong tokens: wait a minute, then try again.'
        : error
          ? 'Logging in failed. Is the server running?'
          : undefined;
  return (
    <main className="flex h-full items-center justify-center bg-panel-sunk p-4">
      <form
        onSubmit={submit}
        className="w-full max-w-sm space-y-4 rounded-lg border border-panel-line bg-panel p-6 shadow-sm"
      >
        <h1 className="text-xl font-semibold">Log in to Haulview</h1>
        <p className="text-sm text-ink-muted">
          This dashboard shows a partner’s live freight data. Enter the dashboard token your admin gave you.
        </p>
        <label className="block text-sm font-medium">
          Dashboard token
          <input
            type="password"
            autoComplete="current-password"
            autoFocus
            value={token}
            onChange={(e) => setToken(e.target.value)}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? errorId : undefined}
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
