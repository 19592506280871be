// The app's small saved documents (theme, presets, the question set, View code's key ...) in the gateway's data folder,
// not in this page's storage: that is per origin, and the gateway's port, so the origin, changes at every launch.
import {create} from "zustand";
import type {StateStorage} from "zustand/middleware";
import {readApiError} from "../../../client/sdk/index.ts";
import {gatewayPath} from "../../../protocol/gateway/routes.ts";
import {gatewayApi} from "./gatewayApi.ts";
import {gatewayHeaders} from "./gatewayHeaders.ts";

/** What could not be loaded or saved, by what it concerns ("settings", "history" ...), for the note the app shows. */
export const useAppDataStatus = create<{problems: Record<string, string>}>()(() => ({problems: {}}));

/** Each document's JSON text, by key: what zustand's `persist` reads synchronously. */
const cache = new Map<string, string>();
/** Keys changed since they were last sent. */
const unsent = new Set<string>();
/** The request in flight for each key: the next one for that key waits for it, so they reach the gateway in order. */
const inFlight = new Map<string, Promise<void>>();
/** False until the saved documents are loaded, and for good if they could not be: defaults never overwrite them. */
let writable = false;
let timer: ReturnType<typeof setTimeout> | null = null;

/** Edits come in bursts (typing in the question set): each document is sent at most this often. */
const writeDelayMs = 300;
/** Browsers refuse a `keepalive` request (the one that outlives a closed page) with a bigger body. */
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
        const {documents} = await gatewayApi.appDocuments();
        for (const [key, value] of Object.entries(documents)) cache.set(key, JSON.stringify(value));
        writable = true;
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

/** Sends every unsent document now; `closing` (the page is hidden or goes away) uses requests that outlive the page. */
export function flushAppData(closing = true): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!writable) return;
    for (const key of [...unsent]) {
        unsent.delete(key);
        const previous = inFlight.get(key);
        // A closing page cannot wait for the request before: it sends at once.
        const sent = closing || previous === undefined ? send(key, closing) : previous.then(() => send(key, false));
        inFlight.set(key, sent);
        void sent.then(() => {
            if (inFlight.get(key) === sent) inFlight.delete(key);
        });
    }
}

/** Shows `problem` in the app's note under `about` (a run that could not be kept, say); `null` clears it. */
export function reportAppDataProblem(about: string, problem: string | null): void {
    const {[about]: _previous, ...others} = useAppDataStatus.getState().problems;
    useAppDataStatus.setState({problems: problem === null ? others : {...others, [about]: problem}});
}

function schedule(key: string) {
    unsent.add(key);
    timer ??= setTimeout(() => flushAppData(false), writeDelayMs);
}

/** Sends the key's current text (or its deletion); a failure leaves it unsent, for the next change to retry. */
async function send(key: string, closing: boolean): Promise<void> {
    const text = cache.get(key);
    try {
        const response = await fetch(`/gateway/api${gatewayPath(text === undefined ? "deleteAppDocument" : "putAppDocument", {key})}`, {
            method: text === undefined ? "DELETE" : "POST",
            headers: {...gatewayHeaders(), ...text === undefined ? {} : {"content-type": "application/json"}},
            body: text,
            keepalive: closing && new TextEncoder().encode(text ?? "").length < keepaliveMaxBytes
        });
        if (!response.ok) throw await readApiError(response);
        // Read to its end: a body left unread holds its connection (and Chromium keeps the request pending).
        await response.arrayBuffer();
        if (useAppDataStatus.getState().problems.settings !== undefined) reportAppDataProblem("settings", null);
    } catch (error) {
        unsent.add(key);
        reportAppDataProblem("settings", `Your settings could not be saved in the app's data folder (${messageOf(error)}). They are kept in this window until it closes.`);
    }
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
