import {useGatewayState} from "../gateway/useGatewayState.ts";
import {useNavStore, type Screen} from "../state/useNavStore.ts";
import {Icon, type IconName} from "./Icon.tsx";

const items: Array<{id: Screen, label: string, icon: IconName, section: string}> = [
    {id: "chat", label: "Chat", icon: "chat", section: "Playgrounds"},
    {id: "responses", label: "Responses", icon: "responses", section: "Playgrounds"},
    {id: "completions", label: "Completions", icon: "completions", section: "Playgrounds"},
    {id: "decisions", label: "Decision studio", icon: "decisions", section: "Decisions"},
    {id: "scoring", label: "Spreadsheet scoring", icon: "scoring", section: "Decisions"},
    {id: "evaluation", label: "Evaluation", icon: "evaluation", section: "Decisions"},
    {id: "history", label: "History", icon: "history", section: "Library"},
    {id: "presets", label: "Presets", icon: "presets", section: "Library"},
    {id: "models", label: "Models", icon: "models", section: "Setup"},
    {id: "engine", label: "Engine & connections", icon: "engine", section: "Setup"}
];

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
