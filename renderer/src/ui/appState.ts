// App-wide UI state every screen may read: which screen is shown (and the View code panel), and the theme, both kept in
// the app's data folder (gateway/appData.ts).
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import {appDataStorage} from "../gateway/appData.ts";

export const screens = ["chat", "responses", "completions", "decisions", "scoring", "evaluation", "experiments", "history", "presets", "datasets", "versions", "models", "engine", "workspace"] as const;

export type Screen = typeof screens[number];

type NavState = {
    screen: Screen,
    viewCodeOpen: boolean,
    go: (screen: Screen) => void,
    toggleViewCode: () => void
};

/** The open screen and the View code panel are kept in the app's data folder: a reload or a restart reopens them. */
export const useNavStore = create<NavState>()(persist((set) => ({
    screen: "chat",
    viewCodeOpen: false,
    go: (screen) => set({screen}),
    toggleViewCode: () => set((state) => ({viewCodeOpen: !state.viewCodeOpen}))
}), {
    name: "svc-studio-nav",
    version: 1,
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({screen: state.screen, viewCodeOpen: state.viewCodeOpen}),
    // A saved screen this version does not have (or a hand-edited file) opens the default one.
    merge: (saved, current) => {
        const {screen, viewCodeOpen} = (saved ?? {}) as {screen?: unknown, viewCodeOpen?: unknown};
        return {
            ...current,
            screen: screens.includes(screen as Screen) ? screen as Screen : current.screen,
            viewCodeOpen: typeof viewCodeOpen === "boolean" ? viewCodeOpen : current.viewCodeOpen
        };
    }
}));

export type Theme = "dark" | "light";

type ThemeState = {theme: Theme, toggle: () => void};

const preferred: Theme = typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";

export const useThemeStore = create<ThemeState>()(persist((set) => ({
    theme: preferred,
    toggle: () => set((state) => ({theme: state.theme === "dark" ? "light" : "dark"}))
}), {name: "svc-studio-theme", storage: createJSONStorage(() => appDataStorage)}));
