import {create} from "zustand";
import {persist} from "zustand/middleware";

export type Theme = "dark" | "light";

type ThemeState = {theme: Theme, toggle: () => void};

const preferred: Theme = typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";

export const useThemeStore = create<ThemeState>()(persist((set) => ({
    theme: preferred,
    toggle: () => set((state) => ({theme: state.theme === "dark" ? "light" : "dark"}))
}), {name: "svc-studio-theme"}));
