// A screen (or a part of one) that throws while it draws (saved data of an unexpected shape, a bug) shows what failed
// and a way out, instead of blanking the whole app at every launch (the app reopens on the last screen).
import {Component, type ErrorInfo as ReactErrorInfo, type ReactNode} from "react";

type Props = {
    /** What could not be shown: "The History screen", "This run". */
    what: string,
    /** A way out: leaves the screen for one that does not depend on what failed. */
    leave?: {label: string, run: () => void},
    testId?: string,
    children: ReactNode
};

type State = {error: Error | null};

export class ScreenErrorBoundary extends Component<Props, State> {
    public override state: State = {error: null};

    public static getDerivedStateFromError(error: unknown): State {
        return {error: error instanceof Error ? error : new Error(String(error))};
    }

    public override componentDidCatch(error: Error, info: ReactErrorInfo): void {
        console.error(`${this.props.what} could not be shown:`, error, info.componentStack);
    }

    public override render(): ReactNode {
        const {error} = this.state;
        if (error === null) return this.props.children;
        return (
            <section className="card screen-error" role="alert" data-testid={this.props.testId ?? "screen-error"}>
                <h3>{this.props.what} could not be shown</h3>
                <p>It failed while drawing: <span className="mono">{error.message.split(/[;\n]/)[0].slice(0, 160)}</span>. The rest of the app works, and nothing saved was changed.</p>
                <div className="row-gap">
                    <button type="button" className="btn btn-primary" data-testid="screen-error-retry" onClick={() => this.setState({error: null})}>Try again</button>
                    {this.props.leave && <button type="button" className="btn" data-testid="screen-error-leave" onClick={this.props.leave.run}>{this.props.leave.label}</button>}
                </div>
            </section>
        );
    }
}
