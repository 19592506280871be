/** The error an aborted signal stands for; older runtimes leave `reason` undefined. */
export function abortReason(signal: AbortSignal): unknown {
    return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}
