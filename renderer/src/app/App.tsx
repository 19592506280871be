// The app's frame: the left navigation, the top bar (connection, View code, theme) and the current screen.
import {useEffect} from "react";
// Screens in this order: it is also the order their stylesheets take in the bundle.
import {ViewCodePanel} from "../features/playground/ViewCodePanel.tsx";
import {ChatScreen} from "../features/playground/ChatScreen.tsx";
import {CompletionsScreen} from "../features/playground/CompletionsScreen.tsx";
import {DecisionStudioScreen} from "../features/decisions/DecisionStudioScreen.tsx";
import {EvaluationScreen} from "../features/scoring/EvaluationScreen.tsx";
import {ScoringScreen} from "../features/scoring/ScoringScreen.tsx";
import {ExperimentsScreen} from "../features/experiments/ExperimentsScreen.tsx";
import {OpenJobAsExperiment} from "../features/experiments/OpenJobAsExperiment.tsx";
import {EngineScreen} from "../features/engine/EngineScreen.tsx";
import {ModelsScreen} from "../features/models/ModelsScreen.tsx";
import {HistoryScreen} from "../features/history/HistoryScreen.tsx";
import {PresetsScreen} from "../features/presets/PresetsScreen.tsx";
import {DatasetsScreen} from "../features/datasets/DatasetsScreen.tsx";
import {VersionsScreen} from "../features/versions/VersionsScreen.tsx";
import {ResponsesScreen} from "../features/playground/ResponsesScreen.tsx";
import {WorkspaceScreen} from "../features/workspace/WorkspaceScreen.tsx";
import {playgroundRunShortcuts, useRunShortcut} from "../features/playground/runViews.tsx";
import {decisionRunShortcut} from "../features/decisions/run.ts";
import {useAppDataStatus} from "../gateway/appData.ts";
import {gatewayApi} from "../gateway/gatewayApi.ts";
import {useGatewayMutation, useGatewayState} from "../gateway/gatewayState.ts";
import {useNavStore, useThemeStore, type Screen} from "../ui/appState.ts";
import {ScreenErrorBoundary} from "../ui/ScreenErrorBoundary.tsx";
import {Icon, type IconName} from "../ui/controls.tsx";

const screens = {
    chat: ChatScreen,
    responses: ResponsesScreen,
    completions: CompletionsScreen,
    decisions: DecisionStudioScreen,
    scoring: ScoringScreen,
    evaluation: () => <EvaluationScreen actions={<OpenJobAsExperiment />} />,
    experiments: ExperimentsScreen,
    history: HistoryScreen,
    presets: PresetsScreen,
    datasets: DatasetsScreen,
    versions: VersionsScreen,
    models: ModelsScreen,
    engine: EngineScreen,
    workspace: WorkspaceScreen
};

/** Ctrl/Cmd+Enter: the Run of the screen shown. */
const runShortcuts = {...playgroundRunShortcuts, decisions: decisionRunShortcut};

export function App() {
    const screen = useNavStore((state) => state.screen);
    const viewCodeOpen = useNavStore((state) => state.viewCodeOpen);
    const theme = useThemeStore((state) => state.theme);
    useRunShortcut(runShortcuts);
    useEffect(() => {
        document.documentElement.dataset.theme = theme;
    }, [theme]);
    const Current = screens[screen];
    const showCode = viewCodeOpen && (screen === "chat" || screen === "responses" || screen === "completions");
    return (
        <div className="app">
            <NavBar />
            <div className="main">
                <TopBar />
                <AppDataNote />
                <div className={`content${showCode ? " with-code" : ""}`}>
                    <main className="screen" data-screen={screen}>
                        {/* One boundary per screen (keyed by it): a screen that fails shows what failed; the nav still works. */}
                        <ScreenErrorBoundary key={screen} what={`The ${screenNames[screen]} screen`}
                            leave={screen === "chat" ? undefined : {label: "Go to Chat", run: () => useNavStore.getState().go("chat")}}><Current /></ScreenErrorBoundary>
                    </main>
                    {showCode && <ViewCodePanel />}
                </div>
            </div>
        </div>
    );
}

const items: Array<{id: Screen, label: string, icon: IconName, section: string}> = [
    {id: "chat", label: "Chat", icon: "chat", section: "Playgrounds"},
    {id: "responses", label: "Responses", icon: "responses", section: "Playgrounds"},
    {id: "completions", label: "Completions", icon: "completions", section: "Playgrounds"},
    {id: "decisions", label: "Decision studio", icon: "decisions", section: "Decisions"},
    {id: "scoring", label: "Spreadsheet scoring", icon: "scoring", section: "Decisions"},
    {id: "evaluation", label: "Evaluation", icon: "evaluation", section: "Decisions"},
    {id: "experiments", label: "Experiments", icon: "experiments", section: "Decisions"},
    {id: "history", label: "History", icon: "history", section: "Library"},
    {id: "presets", label: "Presets", icon: "presets", section: "Library"},
    {id: "datasets", label: "Datasets", icon: "datasets", section: "Library"},
    {id: "versions", label: "Versions", icon: "versions", section: "Library"},
    {id: "models", label: "Models", icon: "models", section: "Setup"},
    {id: "engine", label: "Engine & connections", icon: "engine", section: "Setup"},
    {id: "workspace", label: "Workspace", icon: "workspace", section: "Setup"}
];

/** Each screen's name as the nav says it. */
const screenNames = Object.fromEntries(items.map((item) => [item.id, item.label])) as Record<Screen, string>;

/** The left navigation, with the engine's status at the bottom. */
export function NavBar() {
    const screen = useNavStore((state) => state.screen);
    const go = useNavStore((state) => state.go);
    const {data: state} = useGatewayState();
    const sections = [...new Set(items.map((item) => item.section))];
    return (
        <nav className="nav" aria-label="Screens">
            <div className="brand"><span className="brand-mark" aria-hidden="true" /> Svc Studio</div>
            {sections.map((section) => (
                <div key={section} className="nav-section">
                    <div className="nav-section-title">{section}</div>
                    {items.filter((item) => item.section === section).map((item) => (
                        <button key={item.id} type="button" className={`nav-item${screen === item.id ? " active" : ""}`} onClick={() => go(item.id)}
                            data-testid={`nav-${item.id}`} aria-current={screen === item.id ? "page" : undefined}>
                            <Icon name={item.icon} />{item.label}
                        </button>
                    ))}
                </div>
            ))}
            <button type="button" className="nav-footer" onClick={() => go("engine")} data-testid="nav-engine-status">
                <span className={`dot engine-${state?.engine.status ?? "unknown"}`} aria-hidden="true" />
                <span>Engine {state?.engine.status ?? "…"}</span>
                {state?.mode === "web" && <span className="badge">web</span>}
            </button>
        </nav>
    );
}

const titles: Record<Screen, [string, string]> = {
    chat: ["Chat playground", "POST /svc-1/v1/chat/completions"],
    responses: ["Responses playground", "POST /svc-1/v1/responses"],
    completions: ["Completions playground", "POST /svc-1/v1/completions (legacy)"],
    decisions: ["Decision studio", "POST /svc-1-decision/v1/decisions · /v1/systemone"],
    scoring: ["Spreadsheet scoring", "A question set over every row of a CSV or XLSX file"],
    evaluation: ["Evaluation", "Answers against labels: metrics and calibration"],
    experiments: ["Experiments", "A dataset × variants (versions on connections and models): metrics, intervals, disagreements"],
    history: ["History", "Runs saved on this machine"],
    presets: ["Presets", "Saved prompts with their parameters"],
    datasets: ["Datasets", "Rows with their expected values, for experiments"],
    versions: ["Versions", "Saved prompts and question sets, version by version"],
    models: ["Models", "Library, downloads, GPU and memory"],
    engine: ["Engine & connections", "Local engine and remote profiles"],
    workspace: ["Workspace", "Workspaces, API keys, credits, prices, rate limits and usage of the local engine"]
};

/** The screens with a View code panel: the playgrounds beside them, the Decision studio in place of its JSON panel. */
const codeScreens: Screen[] = ["chat", "responses", "completions", "decisions"];

export function TopBar() {
    const screen = useNavStore((state) => state.screen);
    const viewCodeOpen = useNavStore((state) => state.viewCodeOpen);
    const toggleViewCode = useNavStore((state) => state.toggleViewCode);
    const [title, subtitle] = titles[screen];
    return (
        <header className="topbar">
            <div className="topbar-title">
                <h1>{title}</h1>
                <span className={`mono muted small${subtitle.startsWith("POST ") ? " topbar-endpoint" : ""}`}>{subtitle}</span>
            </div>
            <div className="topbar-actions">
                <ConnectionSwitcher />
                {codeScreens.includes(screen) && (
                    <button type="button" className={`btn btn-sm${viewCodeOpen ? " btn-active" : ""}`} onClick={toggleViewCode} data-testid="view-code-toggle"
                        aria-pressed={viewCodeOpen}><Icon name="code" /> View code</button>
                )}
                <ThemeToggle />
            </div>
        </header>
    );
}

/** Which connection the playgrounds talk to, switchable from every screen. */
export function ConnectionSwitcher() {
    const {data: state} = useGatewayState();
    const activate = useGatewayMutation(gatewayApi.activateConnection);
    if (!state) return null;
    const active = state.connections.find((connection) => connection.id === state.activeConnectionId);
    return (
        <label className={`connection-switcher kind-${active?.kind ?? "local"}`}>
            <span className="muted small">Connection</span>
            <select className="input input-sm" value={state.activeConnectionId} disabled={activate.isPending} data-testid="connection-switcher"
                onChange={(event) => activate.mutate(event.target.value)}>
                {(["local", "remote"] as const).map((kind) => {
                    const group = state.connections.filter((connection) => connection.kind === kind);
                    return group.length === 0 ? null : (
                        <optgroup key={kind} label={kind === "local" ? "This machine" : "Remote"}>
                            {group.map((connection) => <option key={connection.id} value={connection.id}>{connection.name}</option>)}
                        </optgroup>
                    );
                })}
            </select>
        </label>
    );
}

/** What of the app's saved data could not be loaded or saved (gateway/appData.ts); nothing while all is saved. */
export function AppDataNote() {
    const problems = useAppDataStatus((state) => state.problems);
    const actions = useAppDataStatus((state) => state.actions);
    const entries = Object.entries(problems);
    if (entries.length === 0) return null;
    return (
        <div className="field-warning app-data-note" role="alert" data-testid="app-data-note">
            {entries.map(([about, line]) => (
                <div key={about} data-testid="app-data-problem">
                    {line}
                    {(actions[about] ?? []).map((action) => (
                        <button key={action.label} type="button" className="btn btn-sm" style={{marginLeft: 8}} data-testid="app-data-action" onClick={action.run}>{action.label}</button>
                    ))}
                </div>
            ))}
        </div>
    );
}

export function ThemeToggle() {
    const theme = useThemeStore((state) => state.theme);
    const toggle = useThemeStore((state) => state.toggle);
    return (
        <button type="button" className="icon-btn" onClick={toggle} aria-label={`Switch to ${theme === "dark" ? "light" : "dark"} theme`} title="Theme" data-testid="theme-toggle">
            <Icon name={theme === "dark" ? "sun" : "moon"} />
        </button>
    );
}
