// The app's saved documents (theme, presets, the question set, View code's key ...) in the gateway's database, not in
// this page's storage: that is per origin, and the gateway's port, so the origin, changes at every launch.
import {create} from "zustand";
import type {StateStorage} from "zustand/middleware";
import {readApiError} from "../../../client/sdk/index.ts";
import type {RevisionConflictError} from "../../../protocol/gateway/contract.ts";
import {documentWriteQuery, gatewayPath} from "../../../protocol/gateway/routes.ts";
import {gatewayApi} from "./gatewayApi.ts";
import {gatewayHeaders} from "./gatewayHeaders.ts";

/** A button of the app's note: what the user can do about a problem. */
export type AppDataAction = {label: string, run: () => void};

/**
 * What could not be loaded or saved, by what it concerns ("settings", "history", "conflict:<key>" ...), for the note
 * the app shows, with the actions offered for each.
 */
export const useAppDataStatus = create<{problems: Record<string, string>, actions: Record<string, AppDataAction[]>}>()(() => ({problems: {}, actions: {}}));

/** Each document's JSON text, by key: what zustand's `persist` reads synchronously. */
const cache = new Map<string, string>();
/** The revision of each document this page last read or wrote: every write names it, so another window's is never overwritten. */
const revisions = new Map<string, number>();
/** Documents another window changed since this page read them, with the revision the gateway holds: not sent until the user chooses. */
const conflicts = new Map<string, number>();
/** Documents whose last save failed, with why: reported until a save of each succeeds. */
const failures = new Map<string, string>();
/** This page as a writer, and its count of writes: its own writes may overtake each other without being taken for another window's. */
const writer = Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, "0")).join("");
let sequence = 0;
/** Keys changed since they were last sent. */
const unsent = new Set<string>();
/** The request in flight for each key: a change made meanwhile is sent once it is answered, so they reach the gateway in order. */
const inFlight = new Map<string, Promise<boolean>>();
/** False until the saved documents are loaded, and for good if they could not be: defaults never overwrite them. */
let writable = false;
let timer: ReturnType<typeof setTimeout> | null = null;

/**
 * Bytes of `keepalive` bodies in flight (the requests that outlive a closed page): Chromium refuses one once they would
 * pass 64 KB in all, so a save goes as keepalive only while it fits, else as a plain request.
 */
let keepaliveBytes = 0;
const keepaliveMaxBytes = 60 * 1024;

/** The localStorage keys of earlier versions, kept per origin: copied to the gateway once when its folder is empty. */
export const earlierStorageKeys = ["svc-studio-theme", "svc-studio-presets", "svc-studio-question-set", "svc-studio-code-key"] as const;

/**
 * Reads every saved document once, before the stores that persist into them are created (renderer/src/app/main.tsx).
 * A page whose gateway has none yet brings what this origin's localStorage held (`npm run web --port N` kept one
 * origin). Never throws: without its documents the app starts with defaults and says that changes are not saved.
 */
export async function loadAppData(): Promise<void> {
    addEventListener("pagehide", () => flushAppData());
    document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "hidden") flushAppData();
    });
    try {
        const {documents, revisions: read, problems} = await gatewayApi.appDocuments();
        for (const [key, value] of Object.entries(documents)) cache.set(key, JSON.stringify(value));
        // A document that could not be read has a revision but no value: a save over it is based on that revision.
        for (const [key, revision] of Object.entries(read)) revisions.set(key, revision);
        writable = true;
        if (problems.length > 0) {
            reportAppDataProblem("unreadable-documents", problems.join(" "), [{label: "Dismiss", run: () => {
                reportAppDataProblem("unreadable-documents", null);
                void gatewayApi.acknowledgeDocumentProblems().catch(() => undefined);
            }}]);
        }
    } catch (error) {
        reportAppDataProblem("settings", `Your saved settings could not be loaded (${messageOf(error)}): changes made now are not saved. Restart the app to try again.`);
        return;
    }
    if (cache.size === 0) await importEarlierStorage();
}

/** zustand `persist` storage over the loaded documents: reads from memory, writes go to the gateway shortly after. */
export const appDataStorage: StateStorage = {
    getItem: (key) => cache.get(key) ?? null,
    setItem: (key, value) => {
        if (cache.get(key) === value) return;
        cache.set(key, value);
        schedule(key);
    },
    removeItem: (key) => {
        if (!cache.delete(key)) return;
        schedule(key);
    }
};

/**
 * Sends every unsent document now. Edits are sent as they happen (the changes of one task together), one request per
 * document at a time: a change made while its document's request is in flight goes out, as the latest text, once that
 * one is answered. So a closing page has little left to send; `closing` (the page is hidden or goes away) sends even
 * what waits behind a request in flight.
 */
export function flushAppData(closing = true): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!writable) return;
    for (const key of [...unsent]) {
        if (!closing && inFlight.has(key)) continue;
        unsent.delete(key);
        const sent = send(key);
        inFlight.set(key, sent);
        void sent.then((saved) => {
            if (inFlight.get(key) === sent) inFlight.delete(key);
            // A change made meanwhile goes out now; after a failure, with the next change.
            if (saved && unsent.has(key)) schedule(key);
        });
    }
}

/** Shows `problem` in the app's note under `about` (a run that could not be kept, say), with `actions`; `null` clears it. */
export function reportAppDataProblem(about: string, problem: string | null, actions: AppDataAction[] = []): void {
    const {problems: {[about]: _problem, ...problems}, actions: {[about]: _actions, ...others}} = useAppDataStatus.getState();
    useAppDataStatus.setState(problem === null ? {problems, actions: others}
        : {problems: {...problems, [about]: problem}, actions: actions.length === 0 ? others : {...others, [about]: actions}});
}

function schedule(key: string) {
    unsent.add(key);
    timer ??= setTimeout(() => flushAppData(false), 0);
}

/**
 * Sends the key's current text (or its deletion), based on the revision this page holds. A failure leaves it unsent,
 * for the next change to retry; a refusal because another window changed it since is not retried: the page keeps its
 * copy and asks the user which to keep.
 */
async function send(key: string): Promise<boolean> {
    if (conflicts.has(key)) return false;
    const text = cache.get(key);
    const query = documentWriteQuery({revision: revisions.get(key) ?? 0, writer, sequence: ++sequence});
    const bytes = new TextEncoder().encode(text ?? "").length;
    const keepalive = keepaliveBytes + bytes <= keepaliveMaxBytes;
    if (keepalive) keepaliveBytes += bytes;
    try {
        const response = await fetch(`/gateway/api${gatewayPath(text === undefined ? "deleteAppDocument" : "putAppDocument", {key})}?${query}`, {
            method: text === undefined ? "DELETE" : "POST",
            headers: {...gatewayHeaders(), ...text === undefined ? {} : {"content-type": "application/json"}},
            body: text,
            keepalive
        });
        if (response.status === 409) {
            const body = await response.text();
            const conflict = revisionConflict(body);
            if (conflict !== null) {
                conflicted(key, conflict.revision);
                return false;
            }
            throw await readApiError(new Response(body, {status: 409, headers: response.headers}));
        }
        if (!response.ok) throw await readApiError(response);
        // Read to its end: a body left unread holds its connection (and Chromium keeps the request pending).
        const answer = await response.json() as {revision?: number};
        if (text === undefined) revisions.delete(key);
        else if (typeof answer.revision === "number") revisions.set(key, answer.revision);
        failures.delete(key);
        return true;
    } catch (error) {
        unsent.add(key);
        failures.set(key, messageOf(error));
        return false;
    } finally {
        if (keepalive) keepaliveBytes -= bytes;
        reportFailures();
    }
}

/** One line for every save that failed and has not succeeded since: the last reason, and how many documents wait. */
function reportFailures() {
    if (failures.size === 0) {
        if (useAppDataStatus.getState().problems.settings !== undefined) reportAppDataProblem("settings", null);
        return;
    }
    const reason = [...failures.values()].at(-1)!;
    const waiting = failures.size === 1 ? describeKey([...failures.keys()][0]) : `${failures.size} saved items`;
    reportAppDataProblem("settings", `Your changes to ${waiting} could not be saved in the app's data folder (${reason}). ` +
        "They are kept in this window until it closes, and sent again with the next change.");
}

/** The `error` of a 409 `revision_conflict`, or null when the body is another error. */
function revisionConflict(body: string): RevisionConflictError | null {
    try {
        const error = (JSON.parse(body) as {error?: RevisionConflictError}).error;
        return error?.code === "revision_conflict" && typeof error.revision === "number" ? error : null;
    } catch {
        return null;
    }
}

/**
 * Another window changed `key` since this page read it (the gateway holds `revision`): the page keeps its copy, sends
 * nothing more of it, and offers both ways out: reload (the other window's version is then read), or keep this one
 * (sent again, based on the revision the gateway holds now).
 */
function conflicted(key: string, revision: number) {
    conflicts.set(key, revision);
    failures.delete(key);
    reportAppDataProblem(`conflict:${key}`,
        `Another window changed ${describeKey(key)}: reload to take its version, or keep yours (this window's version replaces it).`, [
            {label: "Reload (take its version)", run: () => location.reload()},
            {label: "Keep mine", run: () => {
                conflicts.delete(key);
                revisions.set(key, revision);
                reportAppDataProblem(`conflict:${key}`, null);
                schedule(key);
                flushAppData(false);
            }}
        ]);
}

/** What a document holds, for a sentence: `svc-studio-question-set` is "the question set". */
function describeKey(key: string): string {
    if (/^svc-studio-dataset-.+-rows-\d+$/.test(key)) return "a dataset's rows";
    return `the ${key.replace(/^svc-studio-/, "").replaceAll("-", " ")}`;
}

/** Copies the documents earlier versions kept in this origin's localStorage, then removes them there. */
async function importEarlierStorage() {
    for (const key of earlierStorageKeys) {
        let text: string | null;
        try {
            text = localStorage.getItem(key);
            if (text === null) continue;
            JSON.parse(text);
        } catch {
            continue;
        }
        cache.set(key, text);
        unsent.add(key);
    }
    if (unsent.size === 0) return;
    flushAppData(false);
    await Promise.all(inFlight.values());
    for (const key of earlierStorageKeys) if (cache.has(key) && !unsent.has(key)) localStorage.removeItem(key);
}

function messageOf(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
