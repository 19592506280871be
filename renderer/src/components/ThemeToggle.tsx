import {useThemeStore} from "../state/useThemeStore.ts";
import {Icon} from "./Icon.tsx";

export function ThemeToggle() {
    const theme = useThemeStore((state) => state.theme);
    const toggle = useThemeStore((state) => state.toggle);
    return (
        <button type="button" className="icon-btn" onClick={toggle} aria-label={`Switch to ${theme === "dark" ? "light" : "dark"} theme`} title="Theme" data-testid="theme-toggle">
            <Icon name={theme === "dark" ? "sun" : "moon"} />
        </button>
    );
}
