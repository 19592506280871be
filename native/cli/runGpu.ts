import {parseArgs} from "node:util";
import {detectGpu} from "../gpu/detectGpu.ts";
import {formatGpuReport} from "../gpu/formatGpuReport.ts";

/** `svc-studio gpu [--json]`: which GPU backend the engine can use, and why not when it cannot. */
export async function runGpu(argv: string[]): Promise<void> {
    const {values} = parseArgs({args: argv, strict: true, options: {"json": {type: "boolean"}}});
    const report = await detectGpu();
    console.log(values.json ? JSON.stringify(report, null, 2) : formatGpuReport(report));
}
