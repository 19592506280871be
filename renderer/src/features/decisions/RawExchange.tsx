// A decision run's request and response as JSON, folded away under its answers.
import {JsonBlock} from "../playground/runViews.tsx";
import type {DecisionRunResult} from "./studioState.ts";

/** The request a run sent and the response it got, as JSON: what View code would send, and what came back. */
export function RawExchange({result, testId}: {result: DecisionRunResult, testId: string}) {
    if (result.body === null && result.response === null) return null;
    return (
        <details className="raw-exchange" data-testid={testId}>
            <summary>Request and response JSON</summary>
            <div className="raw-exchange-body">
                {result.body !== null && <JsonBlock label={result.sent ? "Request" : "Request (not sent)"}
                    value={result.body} testId={`${testId}-request`} />}
                {result.response !== null && <JsonBlock label={result.status === "error" ? "Error response" : "Response"} value={result.response} testId={`${testId}-response`} />}
            </div>
        </details>
    );
}
