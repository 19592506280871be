import {EventEmitter} from "node:events";
import type {RequestContext} from "../../native/http/HttpServer.ts";
import type {ServiceBackend} from "../../native/service/backend.ts";
import {ServiceGate} from "../../native/service/ServiceGate.ts";

/**
 * The gate alone, in process, without HTTP: a runner that times `count` sequential requests with the key `secret`,
 * each admitted and settled (5 input tokens, 1 of them cached, 4 output) as a completion's route does, in ms.
 */
export async function gateRunner(backend: ServiceBackend | undefined, secret: string): Promise<(count: number) => Promise<number[]>> {
    const gate = await ServiceGate.create({backend, holdTokens: 512, endpoints: ["/svc-1/v1/completions"], queues: []});
    return async (count) => {
        const times: number[] = [];
        for (let index = 0; index < count; index++) {
            const res = Object.assign(new EventEmitter(), {statusCode: 200});
            const context = {req: {headers: {authorization: `Bearer ${secret}`}}, res, url: new URL("http://127.0.0.1/svc-1/v1/completions"),
                startedAt: performance.now(), signal: new AbortController().signal, modelSegment: "svc-1"} as unknown as RequestContext;
            const started = performance.now();
            await (await gate.admit(context)).settle({prompt_tokens: 5, completion_tokens: 4, prompt_tokens_details: {cached_tokens: 1}});
            times.push(performance.now() - started);
            res.emit("close");
        }
        return times;
    };
}
