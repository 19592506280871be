// Test-only: what the gateway answers a refused app-data store call with.
import {toApiError} from "../../../native/http/replies.ts";

/** "<status> <code>" of the error `promise` rejects with, as the gateway would answer it; "resolved" when it does not reject. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
    try {
        await promise;
    } catch (error) {
        const {status, code} = toApiError(error);
        return `${status} ${code}`;
    }
    return "resolved";
}
