// Preloaded (`node --import`) into a documentation example by the docs test: wraps `fetch`, which the openai client
// uses, so that each exchange (URL, status, whole body, streams included) is appended as a JSON line to
// $DOCS_FETCH_LOG, where the test checks its status and shape.
import {appendFileSync} from "node:fs";

const log = process.env.DOCS_FETCH_LOG;
const fetchAsGiven = globalThis.fetch;

globalThis.fetch = async (input, init) => {
    const response = await fetchAsGiven(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    // A copy of the body is read whole in the background; the example reads its own as it arrives.
    void response.clone().text().then((body) => appendFileSync(log, `${JSON.stringify({url, status: response.status, body})}\n`));
    return response;
};
