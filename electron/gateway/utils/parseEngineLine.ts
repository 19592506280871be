/** What the engine CLI prints on start-up (native/cli/main.ts `serve`), read back line by line. */
export type EngineLine =
    | {kind: "model", modelPath: string, template: string, gpu: string | false, threads: number, contextSize: number, parallel: number}
    | {kind: "listening", url: string};

const modelLine = /^model (.+) \((.+?) template\), (.+?), (\d+) threads, context (\d+) x (\d+) sequences$/;
const listeningLine = /^listening on (http:\/\/\S+)$/;

export function parseEngineLine(line: string): EngineLine | undefined {
    const listening = listeningLine.exec(line.trim());
    if (listening != null) return {kind: "listening", url: listening[1]};
    const model = modelLine.exec(line.trim());
    if (model == null) return undefined;
    return {
        kind: "model",
        modelPath: model[1],
        template: model[2],
        gpu: model[3] === "CPU" ? false : model[3],
        threads: Number(model[4]),
        contextSize: Number(model[5]),
        parallel: Number(model[6])
    };
}
