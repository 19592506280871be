// App-wide UI state every screen may read: which screen is shown (and the View code panel), and the theme (kept in the
// app's data folder, gateway/appData.ts).
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../gateway/appData.ts";

export type Screen = "chat" | "responses" | "completions" | "decisions" | "scoring" | "evaluation" | "history" | "presets" | "models" | "engine" | "workspace";

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

export type Theme = "dark" | "light";

type ThemeState = {theme: Theme, toggle: () => void};

const preferred: Theme = typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";

export const useThemeStore = create<ThemeState>()(persist((set) => ({
    theme: preferred,
    toggle: () => set((state) => ({theme: state.theme === "dark" ? "light" : "dark"}))
}), {name: "svc-studio-theme", storage: createJSONStorage(() => appDataStorage)}));
