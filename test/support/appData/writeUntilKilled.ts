// Test-only: saves into an app-data folder as fast as it can until it is killed (SIGKILL, as a crash or a power cut
// would stop the gateway), so its parent can check that what is left on disk is whole.
//   node --import tsx writeUntilKilled.ts <dir> document   the document "big" (about 1 MB), replaced over and over
//   node --import tsx writeUntilKilled.ts <dir> results    rows appended to the job "crash-job"; made with the job
import {AppDataStore} from "../../../electron/appData/AppDataStore.ts";

const [dir, mode] = process.argv.slice(2);
const data = new AppDataStore(dir);
/** The filler of a document: each version is written in full or not at all, so its length always matches `size`. */
const filler = (version: number) => String(version % 10).repeat(1_000_000);

if (mode === "document") {
    const store = data.documents;
    // Each write is based on the revision before it, as the page's are; an earlier writer's last one to start with.
    let revision = (await store.read()).revisions.big ?? 0;
    for (let version = 0; ; version++) {
        ({revision} = await store.put("big", {version, size: 1_000_000, filler: filler(version)}, {revision}));
        if (version === 2) console.log("writing");
    }
} else if (mode === "results") {
    const store = data.jobs;
    await store.createJob({jobId: "crash-job", status: "running", totalRows: null, error: null, createdAt: 1, updatedAt: 1,
        spec: {questionSet: {format: "systemone", questions: {}}, input: {kind: "row"}, columns: ["x"]}});
    // Rows in flight together, as the job runner's concurrency has them: several appends share one flush.
    const answer = "x".repeat(2_000);
    for (let next = 0; ; next += 8) {
        await Promise.all(Array.from({length: 8}, (_, offset) => store.putResult("crash-job",
            {rowIndex: next + offset, ok: true, response: {answers: {}, explanation: answer} as never, attempts: 1, durationMs: 1, completedAt: next + offset})));
        if (next === 64) console.log("writing");
    }
} else {
    console.error("usage: writeUntilKilled.ts <dir> document|results");
    process.exit(2);
}
