import {useNavStore, type Screen} from "../state/useNavStore.ts";
import {ConnectionSwitcher} from "./ConnectionSwitcher.tsx";
import {Icon} from "./Icon.tsx";
import {ThemeToggle} from "./ThemeToggle.tsx";

const titles: Record<Screen, [string, string]> = {
    chat: ["Chat playground", "POST /svc-1/v1/chat/completions"],
    responses: ["Responses playground", "POST /svc-1/v1/responses"],
    completions: ["Completions playground", "POST /svc-1/v1/completions (legacy)"],
    decisions: ["Decision studio", "POST /svc-1-decision/v1/decisions · /v1/systemone"],
    scoring: ["Spreadsheet scoring", "A question set over every row of a CSV or XLSX file"],
    evaluation: ["Evaluation", "Answers against labels: metrics and calibration"],
    history: ["History", "Runs saved on this machine"],
    presets: ["Presets", "Saved parameter sets"],
    models: ["Models", "Library, downloads, GPU and memory"],
    engine: ["Engine & connections", "Local engine and remote profiles"]
};

const playgrounds: Screen[] = ["chat", "responses", "completions"];

export function TopBar() {
    const screen = useNavStore((state) => state.screen);
    const viewCodeOpen = useNavStore((state) => state.viewCodeOpen);
    const toggleViewCode = useNavStore((state) => state.toggleViewCode);
    const [title, subtitle] = titles[screen];
    return (
        <header className="topbar">
            <div className="topbar-title">
                <h1>{title}</h1>
                <span className="mono muted small">{subtitle}</span>
            </div>
            <div className="topbar-actions">
                <ConnectionSwitcher />
                {playgrounds.includes(screen) && (
                    <button type="button" className={`btn btn-sm${viewCodeOpen ? " btn-active" : ""}`} onClick={toggleViewCode} data-testid="view-code-toggle"
                        aria-pressed={viewCodeOpen}><Icon name="code" /> View code</button>
                )}
                <ThemeToggle />
            </div>
        </header>
    );
}
