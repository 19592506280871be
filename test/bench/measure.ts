/** Runs `clients` loops of `perClient` jobs at once and reports tokens/s and requests/s over the wall time. */
export async function measure(clients: number, perClient: number, job: (client: number) => Promise<number>) {
    const started = performance.now();
    const tokens = await Promise.all(Array.from({length: clients}, async (_, client) => {
        let sum = 0;
        for (let index = 0; index < perClient; index++) sum += await job(client);
        return sum;
    }));
    const seconds = (performance.now() - started) / 1000;
    const totalTokens = tokens.reduce((a, b) => a + b, 0);
    return {tokensPerSecond: totalTokens / seconds, requestsPerSecond: clients * perClient / seconds, tokens: totalTokens};
}

export const format = (value: number) => value.toFixed(1).padStart(9);

/** The middle value (the upper middle of an even count): robust to the VM's occasional stalls. */
export function median(values: number[]): number {
    const sorted = [...values].sort((x, y) => x - y);
    return sorted[Math.floor(sorted.length / 2)];
}
