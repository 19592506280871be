import {ApiError} from "../../protocol/errors.ts";
import {readApiError} from "../errors/readApiError.ts";
import {TransportError} from "../errors/TransportError.ts";
import type {FetchLike} from "../types.ts";
import {abortReason} from "../utils/abortReason.ts";

export type AttemptRequest = {
    fetch: FetchLike,
    url: string,
    init: RequestInit,
    /** The caller's signal: aborting it ends the attempt and, for streams, the reading afterwards. */
    signal?: AbortSignal,
    /** Limit for fetch plus `consume`; not for what is read after `consume` returns. */
    timeoutMs?: number
};

export type Attempt<T> = {
    value: T,
    response: Response,
    /** Aborts when the caller's signal does; a stream reader watches it after `consume` returned. */
    signal: AbortSignal,
    /** Unhooks the caller's signal; call it when the response is fully read. */
    release: () => void
};

/**
 * One HTTP attempt: fetch, turn a non-2xx into an ApiError, then `consume` (read the JSON body, or a
 * stream's first bytes) under the timeout. Failures come out classified for the retry policy: the
 * caller's abort reason as is, ApiError as is, TransportError for timeouts and broken connections.
 */
export async function runAttempt<T>(request: AttemptRequest, consume: (response: Response) => Promise<T>): Promise<Attempt<T>> {
    const {signal: userSignal} = request;
    if (userSignal?.aborted) throw abortReason(userSignal);
    const controller = new AbortController();
    const onUserAbort = () => controller.abort(abortReason(userSignal!));
    userSignal?.addEventListener("abort", onUserAbort, {once: true});
    const release = () => userSignal?.removeEventListener("abort", onUserAbort);

    let timedOut = false;
    const timer = request.timeoutMs != null && request.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new TransportError("timeout", `No response within ${request.timeoutMs} ms`));
        }, request.timeoutMs)
        : undefined;

    try {
        const response = await request.fetch(request.url, {...request.init, signal: controller.signal});
        if (!response.ok) throw await readApiError(response);
        const value = await consume(response);
        return {value, response, signal: controller.signal, release};
    } catch (error) {
        release();
        // Closes whatever is left of the connection (an unread body) before a retry opens another.
        if (!controller.signal.aborted) controller.abort();
        if (userSignal?.aborted) throw abortReason(userSignal);
        if (timedOut) throw new TransportError("timeout", `No response within ${request.timeoutMs} ms`, {cause: error});
        if (error instanceof ApiError || error instanceof TransportError) throw error;
        if (error instanceof DOMException && error.name === "AbortError") throw error;
        throw new TransportError("network", `Request to ${request.url} failed: ${describe(error)}`, {cause: error});
    } finally {
        clearTimeout(timer);
    }
}

function describe(error: unknown): string {
    if (!(error instanceof Error)) return String(error);
    // Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, ...) is on the cause.
    const cause = (error as {cause?: unknown}).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
