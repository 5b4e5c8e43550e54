import { Component, type ReactNode } from 'react';

/**
 * What a page shows when it throws while rendering (a chunk or the catalogue failing to
 * load after a deployment, a bug): a message and a way out, instead of a blank screen.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey: string },
  { error?: Error }
> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error)
      this.setState({ error: undefined });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="alert alert-error" role="alert">
        <h1>This page could not be shown</h1>
        <p>{this.state.error.message}</p>
        <p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload the console
          </button>
        </p>
      </div>
    );
  }
}
