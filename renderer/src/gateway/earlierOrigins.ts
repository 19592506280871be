// Earlier versions of the app kept their data in the page's own storage, per origin, and the desktop app's origin had a
// new port at every launch. At start, the gateway lists those origins not moved in yet and serves, on each one's port,
// a page that reads its storage; framed here (the same site, so it reads that origin's own storage), it hands over
// what it found, which the gateway moves into the app's database. Newest origin first: a setting saved under several
// keeps its newest value.
import type {EarlierStorage} from "../../../protocol/gateway/contract.ts";
import {reportAppDataProblem} from "./appData.ts";
import {gatewayApi} from "./gatewayApi.ts";

/** How long a reading page may take before its origin is left for the next start. */
const readTimeoutMs = 15_000;

/** Moves in every earlier origin's data; says what was moved in the app's note. Never throws. */
export async function moveEarlierOrigins(): Promise<void> {
    let origins: Array<{port: number, url: string}>;
    try {
        ({origins} = await gatewayApi.earlierOrigins());
    } catch {
        return;
    }
    const moved: string[] = [];
    for (const origin of origins) {
        try {
            const storage = await readThroughFrame(origin.url);
            moved.push(`${(await gatewayApi.importEarlierOrigin(origin.port, storage)).moved} from http://127.0.0.1:${origin.port}`);
        } catch {
            // Left for the next start: the gateway lists an origin until it is moved in.
        }
    }
    if (moved.length > 0)
        reportAppDataProblem("earlier-origins", `Moved in from an earlier version of the app: ${moved.join("; ")}.`,
            [{label: "Dismiss", run: () => reportAppDataProblem("earlier-origins", null)}]);
}

function readThroughFrame(url: string): Promise<EarlierStorage> {
    const origin = new URL(url).origin;
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.title = "Reading an earlier version's data";
    return new Promise<EarlierStorage>((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`${origin} did not answer`)), readTimeoutMs);
        const onMessage = (event: MessageEvent) => {
            const storage = (event.data as {svcStudioEarlierStorage?: EarlierStorage} | null)?.svcStudioEarlierStorage;
            if (event.origin === origin && event.source === frame.contentWindow && storage !== undefined) done(null, storage);
        };
        const done = (error: Error | null, storage?: EarlierStorage) => {
            clearTimeout(timer);
            removeEventListener("message", onMessage);
            frame.remove();
            if (error === null) resolve(storage!);
            else reject(error);
        };
        addEventListener("message", onMessage);
        frame.src = url;
        document.body.append(frame);
    });
}
