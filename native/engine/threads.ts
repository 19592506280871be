import os from "node:os";

/**
 * Generation threads when none are given: one core fewer than the machine has (at least 1), leaving a core to Node's
 * own thread (HTTP, detokenizing, scheduling). Threads that compete with it for every core stall generation: on a
 * 2-core machine, stories260K answered a 256-token chat in 0.23-0.30 s with 1 thread and in 2.8-24 s with 2
 * (docs/performance.md, "Threads"); llama.cpp's own llama-bench, with no Node thread beside it, is faster at 2.
 */
export function defaultThreads(cores = os.availableParallelism()): number {
    return Math.max(1, cores - 1);
}

/** How the default is chosen, for help texts: `defaultThreads` itself and its rule, so the text cannot say otherwise. */
export function describeDefaultThreads(cores = os.availableParallelism()): string {
    return cores > 1 ? `${defaultThreads(cores)}: this machine's ${cores} cores less one, for Node's own thread` : `${defaultThreads(cores)}: this machine's one core`;
}
