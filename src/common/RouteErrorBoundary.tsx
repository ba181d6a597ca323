import { Component, type ReactNode } from 'react';
import { ChunkLoadError } from '../lib/lazy';
import './common.css';

interface Props {
  children: ReactNode;
  resetKey?: string;
  /** The shop's language for the message (translateMessage); the console and the sign-in pages pass none. */
  translate?: (text: string) => string;
}
interface State { error: Error | null; resetKey?: string }

/**
 * Catches what a route's page throws while rendering (a code file that failed to load, above all)
 * so that only the page is replaced by a message with Retry; the shop around it stays.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Another route: try afresh.
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  retry = () => {
    const { error } = this.state;
    if (error instanceof ChunkLoadError) error.retry();
    this.setState({ error: null });
  };

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = error instanceof ChunkLoadError;
    const tr = this.props.translate ?? ((text: string) => text);
    return (
      <div className="route-error" role="alert">
        <h1>{tr(chunk ? 'This page could not be loaded' : 'Something went wrong on this page')}</h1>
        <p>{tr(chunk ? 'Please check your connection and try again.' : 'Please try again. If it happens again, reload the page.')}</p>
        <button type="button" className="route-error__retry" onClick={this.retry}>{tr('Retry')}</button>
      </div>
    );
  }
}
