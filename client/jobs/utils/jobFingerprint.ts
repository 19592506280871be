import {stableStringify} from "../../../protocol/decisions/stableStringify.ts";
import type {JobSpec} from "../types.ts";

/**
 * What must not change for a job to be resumed: the questions, endpoint options, input mapping and columns.
 * A calibration, a name or a description may change (they do not change what the server is asked).
 */
export function jobFingerprint(spec: JobSpec): string {
    const {format, questions, x_svc} = spec.questionSet;
    return stableStringify({format, questions, x_svc: x_svc ?? null, input: spec.input, columns: spec.columns});
}
