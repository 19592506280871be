import type {LocalEngine} from "../../../native/engine/LocalEngine.ts";

export type TokenCounts = {input: number, output: number};

/**
 * Tokens every sequence of the engine has evaluated as input and generated as output so far (node-llama-cpp's
 * token meters): what the engine really did, to check against the usage the API reports. Call it while idle.
 */
export async function sequenceMeters(engine: LocalEngine): Promise<TokenCounts> {
    if (engine.scheduler.idle !== engine.info.parallel) throw new Error("sequenceMeters needs an idle engine");
    const leases = [];
    for (let index = 0; index < engine.info.parallel; index++) leases.push(await engine.scheduler.acquire([]));
    try {
        return leases.reduce((sum, lease) => ({
            input: sum.input + lease.sequence.tokenMeter.usedInputTokens,
            output: sum.output + lease.sequence.tokenMeter.usedOutputTokens
        }), {input: 0, output: 0});
    } finally {
        for (const lease of leases) lease.release();
    }
}
