import {create} from "zustand";

export type Screen = "chat" | "responses" | "completions" | "decisions" | "scoring" | "evaluation" | "history" | "presets" | "models" | "engine";

type NavState = {
    screen: Screen,
    viewCodeOpen: boolean,
    go: (screen: Screen) => void,
    toggleViewCode: () => void
};

export const useNavStore = create<NavState>()((set) => ({
    screen: "chat",
    viewCodeOpen: false,
    go: (screen) => set({screen}),
    toggleViewCode: () => set((state) => ({viewCodeOpen: !state.viewCodeOpen}))
}));
