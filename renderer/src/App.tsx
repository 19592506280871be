import {useEffect} from "react";
import {NavBar} from "./components/NavBar.tsx";
import {TopBar} from "./components/TopBar.tsx";
import {ViewCodePanel} from "./components/ViewCodePanel.tsx";
import {ChatScreen} from "./screens/ChatScreen.tsx";
import {CompletionsScreen} from "./screens/CompletionsScreen.tsx";
import {DecisionStudioScreen} from "./decisions/DecisionStudioScreen.tsx";
import {EvaluationScreen} from "./scoring/EvaluationScreen.tsx";
import {ScoringScreen} from "./scoring/ScoringScreen.tsx";
import {EngineScreen} from "./screens/EngineScreen.tsx";
import {ModelsScreen} from "./screens/ModelsScreen.tsx";
import {HistoryScreen} from "./screens/HistoryScreen.tsx";
import {PresetsScreen} from "./screens/PresetsScreen.tsx";
import {ResponsesScreen} from "./screens/ResponsesScreen.tsx";
import {useNavStore} from "./state/useNavStore.ts";
import {useThemeStore} from "./state/useThemeStore.ts";
import {useRunShortcut} from "./utils/useRunShortcut.ts";

const screens = {
    chat: ChatScreen,
    responses: ResponsesScreen,
    completions: CompletionsScreen,
    decisions: DecisionStudioScreen,
    scoring: ScoringScreen,
    evaluation: EvaluationScreen,
    history: HistoryScreen,
    presets: PresetsScreen,
    models: ModelsScreen,
    engine: EngineScreen
};

export function App() {
    const screen = useNavStore((state) => state.screen);
    const viewCodeOpen = useNavStore((state) => state.viewCodeOpen);
    const theme = useThemeStore((state) => state.theme);
    useRunShortcut();
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
                <div className={`content${showCode ? " with-code" : ""}`}>
                    <main className="screen" data-screen={screen}><Current /></main>
                    {showCode && <ViewCodePanel />}
                </div>
            </div>
        </div>
    );
}
