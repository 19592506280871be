import os from "node:os";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {LlamaDecisionEngine} from "../../native/decisions/LlamaDecisionEngine.ts";
import {LocalEngine} from "../../native/engine/LocalEngine.ts";
import {startServer} from "../../native/startServer.ts";

const questionCount = 64;
const contextSize = 2048;
const sentence = "Once upon a time there was a little girl named Lily who liked to play with her red ball in the big green garden. ";

/**
 * Issue "Local engine part 3" benchmark, decision endpoints over HTTP on the same model and threads:
 * (a) one 64-question request on a ~500-token input vs (b) 64 one-question requests on that input (the engine
 * keeps the input's KV prefix between requests) and (c) 64 one-question requests whose inputs differ in their
 * first word (no reuse between requests); questions per second; and, in process, the cost of asking every
 * question in both option orders (orderDebias on vs off). Rounds alternate and the median is kept.
 */
export async function decisionsBench(modelPath: string, threads: number, rounds = 3) {
    const load = () => os.loadavg()[0].toFixed(1);
    console.log(`load average (1 min) at start: ${load()} on ${os.availableParallelism()} cores`);

    const server = await startServer({modelPath, threads, gpu: "off", port: 0, contextSize});
    const text = inputOfAbout(500, (candidate) => server.engine.model.tokenize(candidate).length);
    const textTokens = server.engine.model.tokenize(text).length;
    const questions = Array.from({length: questionCount}, (_, index) => index % 2 === 0
        ? {type: "predicate", instructions: `Does the story mention thing number ${index}?`}
        : {type: "choice", instructions: `Which colour is thing number ${index}?`, choices: ["red", "green", "blue", "yellow"].map((value) => ({value}))});
    const post = async (input: string, asked: unknown[]) => {
        const response = await fetch(`${server.url}/svc-1-decision/v1/decisions`, {
            method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({model: "svc-1-decision", input, questions: asked})
        });
        if (response.status !== 200) throw new Error(`decisions answered ${response.status}: ${await response.text()}`);
        return (await response.json() as {usage: {input_tokens: number}}).usage.input_tokens;
    };

    const cases = {
        "(a) one 64-question request": async () => post(text, questions),
        "(b) 64 one-question requests, same input": async () => {
            let tokens = 0;
            for (const question of questions) tokens += await post(text, [question]);
            return tokens;
        },
        "(c) 64 one-question requests, inputs differ": async () => {
            let tokens = 0;
            for (const [index, question] of questions.entries()) tokens += await post(`Story ${index}. ${text}`, [question]);
            return tokens;
        }
    };
    await post(text, questions.slice(0, 2)); // warm-up: first-call costs and the decision context
    const times = await alternate(cases, rounds);
    console.log(`\nmodel input: ${textTokens} tokens; ${questionCount} questions (half yes/no, half 4-option choice); threads ${threads}; ${rounds} rounds, median`);
    printTable("over HTTP", times);
    const [a, b, c] = Object.values(times);
    console.log(`b/a: ${ratio(b, a)};  c/a: ${ratio(c, a)}`);
    await server.close();

    // Two-order averaging, in process (the option is not on the wire): the same 64 questions, fresh input each round.
    const engine = await LocalEngine.load({modelPath, threads, gpu: "off", contextSize});
    const engines = {"orderDebias on (given + reversed)": new LlamaDecisionEngine(engine), "orderDebias off (given order only)": new LlamaDecisionEngine(engine, {orderDebias: false})};
    let round = 0;
    const debiasCases = Object.fromEntries(Object.entries(engines).map(([name, decisionEngine]) => [name, async () => {
        const request = parseDecisionsRequest({model: "svc-1-decision", input: `Round ${round++}. ${text}`, questions});
        return (await decisionEngine.decide(request, new AbortController().signal)).usage.inputTokens;
    }]));
    for (const run of Object.values(debiasCases)) await run();
    const debias = await alternate(debiasCases, rounds);
    printTable("in process, one 64-question request", debias);
    const [on, off] = Object.values(debias);
    console.log(`two-order averaging costs ${ratio(on, off)} of one order`);
    await engine.dispose();
    console.log(`load average (1 min) at end: ${load()}`);
}

/** Repeats `sentence` until the text is at least `tokens` long by `count`. */
function inputOfAbout(tokens: number, count: (text: string) => number): string {
    let text = "";
    while (count(text) < tokens) text += sentence;
    return text.trim();
}

type Run = {seconds: number, cpuSeconds: number, tokens: number};

/**
 * Runs every case once per round, in turn, so machine noise falls on all of them; the median round of each.
 * Besides wall time it records this process's CPU time (server and engine run in it), which other processes
 * on a busy machine disturb far less than the wall clock.
 */
async function alternate(cases: Record<string, () => Promise<number>>, rounds: number): Promise<Record<string, Run>> {
    const runs: Record<string, Run[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    for (let round = 0; round < rounds; round++)
        for (const [name, run] of Object.entries(cases)) {
            const started = performance.now();
            const cpu = process.cpuUsage();
            const tokens = await run();
            const used = process.cpuUsage(cpu);
            runs[name].push({seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, tokens});
        }
    const median = (list: Run[], key: "seconds" | "cpuSeconds") => [...list].sort((x, y) => x[key] - y[key])[Math.floor(list.length / 2)][key];
    return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, {seconds: median(list, "seconds"), cpuSeconds: median(list, "cpuSeconds"), tokens: list[0].tokens}]));
}

function printTable(title: string, runs: Record<string, Run>) {
    console.log(`\n${title.padEnd(46)}${"wall s".padStart(9)}${"cpu s".padStart(9)}${"q/s wall".padStart(10)}${"q/s cpu".padStart(9)}${"input tok".padStart(11)}`);
    for (const [name, {seconds, cpuSeconds, tokens}] of Object.entries(runs))
        console.log(`${name.padEnd(46)}${seconds.toFixed(2).padStart(9)}${cpuSeconds.toFixed(2).padStart(9)}` +
            `${(questionCount / seconds).toFixed(1).padStart(10)}${(questionCount / cpuSeconds).toFixed(1).padStart(9)}${String(tokens).padStart(11)}`);
}

const ratio = (x: Run, y: Run) => `${(x.seconds / y.seconds).toFixed(2)}x wall, ${(x.cpuSeconds / y.cpuSeconds).toFixed(2)}x cpu`;
