// What every playground shows of a run: Run / Stop, status, usage and timings, reasoning; the hooks that keep it in view.
import {useEffect, useRef, useLayoutEffect, type ReactNode} from "react";
import {gatewayStateKey, queryClient, useGatewayState} from "../../gateway/gatewayState.ts";
import type {EngineState} from "../../gateway/types.ts";
import {useNavStore, type Screen} from "../../ui/appState.ts";
import {CopyButton, Icon} from "../../ui/controls.tsx";
import {generationRate, rateDefinition} from "./runNumbers.ts";
import type {RunState, RunStatus} from "./runs.ts";
import {runChat, runCompletions, runResponses, useChatStore, useCompletionsStore, useResponsesStore} from "./stores.ts";
import {elideDataUrls} from "./viewCode.ts";

/** `actions`: a playground's other ways to run (the completions "Score this text"), shown beside Run when idle. */
type RunBarProps = {run: RunState, onRun: () => void, onStop: () => void, disabledReason?: string | null, actions?: ReactNode};

/**
 * The local engine's status while `run` waits for its first output on it, read again every half second until it runs
 * (the gateway starts a stopped engine for the request when auto start is on); undefined for any other run.
 */
export function useEngineWhileWaiting(run: RunState, waiting: boolean): EngineState | undefined {
    const {data: gateway} = useGatewayState();
    const watching = run.status === "running" && run.connectionKind === "local" && waiting;
    const status = gateway?.engine.status;
    useEffect(() => {
        if (!watching) return;
        const refresh = () => void queryClient.invalidateQueries({queryKey: gatewayStateKey});
        // A running engine is only confirmed (the state can be seconds old: an idle unload may have stopped it since).
        if (status === "running") {
            if (gatewayStateAge() > 1000) refresh();
            return;
        }
        refresh();
        const timer = setInterval(refresh, 500);
        return () => clearInterval(timer);
    }, [watching, status]);
    return watching ? gateway?.engine : undefined;
}

/** Milliseconds since the gateway state was last read. */
const gatewayStateAge = () => Date.now() - (queryClient.getQueryState(gatewayStateKey)?.dataUpdatedAt ?? 0);

/** The line a reply shows before its first output: the engine starting, or the wait for the first token. */
export function WaitingForOutput({run}: {run: RunState}) {
    const engine = useEngineWhileWaiting(run, true);
    if (engine?.status === "starting")
        return <div className="muted" data-testid="engine-starting">{startingText(engine)}; the request goes through once it runs.</div>;
    return <div className="muted" data-testid="waiting-first-token">Waiting for the first token…</div>;
}

const startingText = (engine: EngineState) => `Starting the local engine${engine.model ? ` (${engine.model.split(/[\\/]/).pop()})` : ""}`;

/** Run and Stop, with the run's state; Ctrl/Cmd+Enter runs from anywhere on the screen. */
export function RunBar({run, onRun, onStop, disabledReason, actions}: RunBarProps) {
    const running = run.status === "running";
    const engine = useEngineWhileWaiting(run, run.timing.firstByteMs === undefined);
    return (
        <div className="run-bar">
            {running
                ? <button type="button" className="btn btn-danger" onClick={onStop} data-testid="stop-button"><Icon name="stop" /> Stop</button>
                : <button type="button" className="btn btn-primary" onClick={onRun} disabled={Boolean(disabledReason)} title={disabledReason ?? "Ctrl+Enter"} data-testid="run-button"><Icon name="play" /> Run</button>}
            {!running && actions}
            <RunStatusBadge run={run} engineStarting={engine?.status === "starting"} />
            {run.connectionName && run.status !== "idle" && <span className="muted small">via {run.connectionName}</span>}
            {run.note && <span className="muted small" data-testid="run-note">{run.note}</span>}
            {disabledReason && !running && <span className="field-error inline">{disabledReason}</span>}
        </div>
    );
}

const labels: Record<RunState["status"], string> = {idle: "ready", running: "streaming…", done: "done", stopped: "stopped", error: "error"};

export function RunStatusBadge({run, engineStarting = false}: {run: RunState, engineStarting?: boolean}) {
    const label = engineStarting && run.status === "running" ? "starting engine…"
        : run.status === "running" && run.request?.stream !== true ? "waiting…" : labels[run.status];
    return <span className={`status-badge status-${run.status}`} data-testid="run-status">{label}</span>;
}

type RunStatsProps = {run: Pick<RunState, "timing" | "request">, usage?: Record<string, unknown>};

const ms = (value: number | null | undefined) => value === undefined || value === null ? null : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** Usage (spec 2.3) and timings of one reply: Server-Timing from the server, the rest measured here. */
export function RunStats({run, usage}: RunStatsProps) {
    const {timing} = run;
    const rate = generationRate(run, usage);
    const cached = (usage?.prompt_tokens_details as {cached_tokens?: number} | undefined)?.cached_tokens
        ?? (usage?.input_tokens_details as {cached_tokens?: number} | undefined)?.cached_tokens;
    const items: Array<[string, string | null, string]> = [
        ["Server-Timing", ms(timing.serverTimingMs), "server-timing"],
        ["first byte", ms(timing.firstByteMs), "first-byte"],
        ["first token", ms(timing.firstTokenMs), "first-token"],
        ["total", ms(timing.totalMs), "total"]
    ];
    return (
        <div className="run-stats" data-testid="run-stats">
            {usage && (
                <div className="stat-group" data-testid="usage">
                    {Object.entries(usage).filter(([, value]) => typeof value === "number").map(([key, value]) => (
                        <span className="stat" key={key}><span className="stat-label">{key}</span><span className="stat-value mono">{String(value)}</span></span>
                    ))}
                    {cached !== undefined && <span className="stat"><span className="stat-label">cached</span><span className="stat-value mono">{cached}</span></span>}
                </div>
            )}
            <div className="stat-group">
                {items.filter(([, value]) => value !== null).map(([label, value, id]) => (
                    <span className="stat" key={label} data-testid={`stat-${id}`}><span className="stat-label">{label}</span><span className="stat-value mono">{value}</span></span>
                ))}
                {rate !== undefined && (
                    <span className="stat" data-testid="stat-rate" title={"tokensPerSecond" in rate ? rateDefinition : rate.unmeasured}>
                        <span className="stat-label">tokens/s</span>
                        <span className="stat-value mono">{"tokensPerSecond" in rate ? rate.tokensPerSecond.toFixed(0) : "not measurable"}</span>
                    </span>
                )}
                {timing.attempts !== undefined && timing.attempts > 1 && <span className="stat"><span className="stat-label">attempts</span><span className="stat-value mono">{timing.attempts}</span></span>}
            </div>
        </div>
    );
}

type JsonBlockProps = {label: string, value: unknown, testId?: string};

/** A request or response body as JSON, image data shortened for display; Copy copies it whole. */
export function JsonBlock({label, value, testId}: JsonBlockProps) {
    const text = (shown: unknown) => JSON.stringify(shown, null, 2) ?? "null";
    return (
        <div className="json-block" data-testid={testId}>
            <div className="json-block-head">
                <span className="card-label">{label}</span>
                <CopyButton testId={testId && `${testId}-copy`} text={() => text(value)} />
            </div>
            {/* Focusable, so the keyboard scrolls it too. */}
            <pre className="code-block small-code" tabIndex={0} aria-label={`${label} JSON`}>{text(elideDataUrls(value))}</pre>
        </div>
    );
}

type ReasoningSectionProps = {reasoning: string | null, streaming: boolean};

/** Separated reasoning (spec 2.6), folded away by default; `null` means the server withheld it. */
export function ReasoningSection({reasoning, streaming}: ReasoningSectionProps) {
    if (reasoning === "") return null;
    return (
        <details className="reasoning" data-testid="reasoning">
            <summary>
                Reasoning
                <span className="muted">{reasoning === null ? " · withheld (include_reasoning: false)" : ` · ${reasoning.length} chars${streaming ? " · streaming" : ""}`}</span>
            </summary>
            {reasoning !== null && <pre className="reasoning-text">{reasoning}</pre>}
        </details>
    );
}

/** Scrolls the reply into view when a run starts, so the stream is seen even below a long conversation. */
export function useRevealWhenRunning<T extends HTMLElement>(status: RunStatus) {
    const ref = useRef<T>(null);
    useEffect(() => {
        if (status === "running") ref.current?.scrollIntoView({block: "nearest", behavior: "smooth"});
    }, [status]);
    return ref;
}

/**
 * Keeps a scrolling element pinned to its end while it grows (a streaming reply), unless the reader has
 * scrolled up to read: then it stays where they are.
 */
export function useStickToBottom<T extends HTMLElement>(content: unknown) {
    const ref = useRef<T>(null);
    const pinned = useRef(true);
    useLayoutEffect(() => {
        const element = ref.current;
        if (element && pinned.current) element.scrollTop = element.scrollHeight;
    }, [content]);
    const onScroll = () => {
        const element = ref.current;
        if (element) pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
    };
    return {ref, onScroll};
}

/** What Ctrl/Cmd+Enter does on a screen: its Run, unless a run is already going. */
export type RunShortcut = {run: () => unknown, running: () => boolean};

export const playgroundRunShortcuts: Partial<Record<Screen, RunShortcut>> = {
    chat: {run: runChat, running: () => useChatStore.getState().run.status === "running"},
    responses: {run: runResponses, running: () => useResponsesStore.getState().run.status === "running"},
    completions: {run: runCompletions, running: () => useCompletionsStore.getState().run.status === "running"}
};

/**
 * Ctrl/Cmd+Enter runs the current screen's `shortcuts` entry unless it is already running, from anywhere on the screen:
 * the key is taken before the focused element sees it, so a JSON editor does not also insert a line.
 */
export function useRunShortcut(shortcuts: Partial<Record<Screen, RunShortcut>>) {
    useEffect(() => {
        const onKey = (event: KeyboardEvent) => {
            if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
            const shortcut = shortcuts[useNavStore.getState().screen];
            // A dialog asking something (discard unsaved edits?) is answered first.
            if (shortcut === undefined || shortcut.running() || document.querySelector("dialog[open]") !== null) return;
            event.preventDefault();
            event.stopPropagation();
            void shortcut.run();
        };
        window.addEventListener("keydown", onKey, {capture: true});
        return () => window.removeEventListener("keydown", onKey, {capture: true});
    }, [shortcuts]);
}
