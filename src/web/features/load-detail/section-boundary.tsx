import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** The section's name in words, for the message: "Temperatures". */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Keeps the rest of the page alive when one section throws (data of a shape nobody expected): the
 * section is replaced by a message and a way to try again, the others go on.
 */
export class SectionBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`The ${this.props.name} section failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
        <p>
          <strong>{this.props.name}</strong> could not be shown:{' '}
          {this.state.error.message || 'unexpected data'}. The rest of the page still works.
        </p>
        <button
          type="button"
          onClick={() => this.setState({ error: null })}
          className="mt-2 rounded border border-red-400 px-2 py-0.5 hover:bg-red-100"
        >
          Try again
        </button>
      </div>
    );
  }
}
