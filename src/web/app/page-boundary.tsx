import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * The words browsers give a page's code that could not be fetched: Chromium's, Firefox's and
 * Safari's for a dynamic import, and a preload's failure as Vite reports it.
 */
const CODE_NOT_LOADED = /dynamically imported module|importing a module script failed|unable to preload css/i;

/** Whether `error` says that a page's code could not be fetched (a deploy removed the old files). */
export const codeNotLoaded = (error: Error): boolean => CODE_NOT_LOADED.test(error.message);

interface Props {
  /** The page shown: a new one is tried afresh. */
  page: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
  page: string;
}

/**
 * Keeps the header, the navigation and the update notice when a page fails to open or to draw:
 * without it React takes the whole app off the screen, leaving a blank one. A page whose code
 * could not be fetched is, nearly always, a tab of the previous build after a deploy: a reload
 * brings the new one.
 */
export class PageBoundary extends Component<Props, State> {
  override state: State = { error: null, page: this.props.page };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.page === state.page ? null : { error: null, page: props.page };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`The page ${this.props.page} failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const stale = codeNotLoaded(error);
    return (
      <div role="alert" className="m-4 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
        {stale ? (
          <p>
            <strong>This page could not be loaded:</strong> Haulview was probably updated since this tab was
            opened, and the server no longer has this version&rsquo;s files. Reload to use the new version.
          </p>
        ) : (
          <p>
            <strong>This page failed:</strong> {error.message || 'an unexpected error'}. The other pages still
            work.
          </p>
        )}
        <p className="mt-2 flex gap-2">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="rounded bg-red-800 px-2 py-0.5 font-medium text-white hover:bg-red-900"
          >
            Reload
          </button>
          {!stale && (
            <button
              type="button"
              onClick={() => this.setState({ error: null })}
              className="rounded border border-red-400 px-2 py-0.5 hover:bg-red-100"
            >
              Try again
            </button>
          )}
        </p>
      </div>
    );
  }
}
