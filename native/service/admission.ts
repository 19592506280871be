import type {ApiError} from "../../protocol/errors.ts";
import {unauthorized} from "../http/gate.ts";
import type {Admission, ServiceMetering} from "./backend.ts";
import {type Hold, holdMicros} from "./billing.ts";
import {type KeyRecord, keyMatches, keyState} from "./keys.ts";

/** What a request's admission is asked with: the bearer token, its lookup part, the model, and the gate's settings. */
export type AdmissionRequest = {
    token: string,
    lookup: string,
    model: string,
    /** The most tokens one request can process: the size of its hold (billing.ts, holdMicros). */
    holdTokens: number,
    /** Spec §5 rule 4: how long a created or rotated key may still fail. */
    keyActivationMs: number,
    /** The time the key's activation is judged at (epoch ms). */
    now: number
};

/** An admitted request: what its key, workspace, price and limit were, and the credit it holds. */
export type AdmittedRequest = Admission & {hold: Hold};

/**
 * Spec §5 rule 4 and §7: the 401 of an unknown key, one whose secret does not match (compared in constant time),
 * a revoked one, or one created or rotated less than `activationMs` ago; undefined for a key that may call.
 */
export function keyRefusal(token: string, key: KeyRecord | undefined, activationMs: number, now: number): ApiError | undefined {
    if (key == null || !keyMatches(token, key.secretHash)) return unauthorized("the API key is not valid");
    const state = keyState(key, activationMs, now);
    if (state === "revoked") return unauthorized("the API key has been revoked");
    if (state === "activating")
        return unauthorized(`the API key was created or rotated less than ${Math.ceil(activationMs / 1000)} s ago and is not active yet; retry shortly`);
    return undefined;
}

/**
 * Admission as separate steps, for a store on this process's event loop (SQLite), where a step costs no round trip:
 * read the key with its workspace, price and limit; refuse a key that may not call (401); hold the most the request
 * can cost (402) and take a request from the rate buckets (429).
 */
export async function admitInSteps(metering: Pick<ServiceMetering, "admission" | "reserve">, request: AdmissionRequest): Promise<AdmittedRequest> {
    const admission = await metering.admission(request.lookup, request.model);
    const refusal = keyRefusal(request.token, admission?.key, request.keyActivationMs, request.now);
    if (refusal != null || admission == null) throw refusal;
    const hold = await metering.reserve(admission.workspace, holdMicros(request.model, request.holdTokens, admission.price), admission.limit);
    return {...admission, hold};
}
