// Small building blocks every screen uses: icons, tabs, the copy button, the side panel, the growing textarea.
import {useState, type KeyboardEvent, type ReactNode, useLayoutEffect, useRef, type TextareaHTMLAttributes} from "react";

// Inline stroke icons (24x24 grid), so nothing depends on an icon font or emoji being installed.
const paths = {
    chat: "M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z",
    responses: "M4 7h13l-3-3M20 17H7l3 3",
    completions: "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4",
    history: "M12 7v5l3 2M3.5 12a8.5 8.5 0 1 0 2.5-6L3 9M3 4v5h5",
    presets: "M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4",
    engine: "M13 2L4 14h7l-1 8 9-12h-7l1-8z",
    models: "M12 3l8 4.5v9L12 21l-8-4.5v-9L12 3zM4 7.5l8 4.5 8-4.5M12 12v9",
    decisions: "M9 11l3 3 8-8M20 12v7H4V5h11",
    scoring: "M4 5h16v14H4zM4 10h16M4 15h16M10 5v14",
    evaluation: "M4 20V11M10 20V5M16 20v-8M21 20H3",
    datasets: "M4 6c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
    versions: "M6 3v12M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 9a9 9 0 0 1-9 9",
    experiments: "M9 3h6M10 3v6l-5 9a2 2 0 0 0 1.8 3h10.4a2 2 0 0 0 1.8-3l-5-9V3M7.5 14h9",
    plus: "M12 5v14M5 12h14",
    sun: "M12 4V2M12 22v-2M4 12H2M22 12h-2M5.6 5.6 4.2 4.2M19.8 19.8l-1.4-1.4M5.6 18.4l-1.4 1.4M19.8 4.2l-1.4 1.4M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0z",
    moon: "M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5z",
    code: "M8 8l-4 4 4 4M16 8l4 4-4 4M13.5 5l-3 14",
    play: "M7 5v14l12-7L7 5z",
    stop: "M7 7h10v10H7z",
    close: "M6 6l12 12M18 6L6 18",
    up: "M12 19V5M6 11l6-6 6 6",
    down: "M12 5v14M6 13l6 6 6-6",
    image: "M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9.5h0",
    workspace: "M10.8 12.2 20 3M16 7l3 3M14 9l2 2M12 15a4 4 0 1 1-8 0 4 4 0 0 1 8 0z"
} as const;

export type IconName = keyof typeof paths;

export function Icon({name, size = 16}: {name: IconName, size?: number}) {
    return (
        <svg className="icon" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
            strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d={paths[name]} />
        </svg>
    );
}

type TabsProps<T extends string> = {
    tabs: ReadonlyArray<{id: T, label: string, badge?: string | null}>,
    active: T,
    onChange: (id: T) => void,
    /** What the tabs choose between, for screen readers ("Decision studio views"). */
    label: string,
    /** The id of the TabPanel that shows the active tab (from React's useId). */
    panelId: string,
    testId?: string
};

/** The id of the tab `tab` of the tabs whose panel is `panelId`: the panel is labelled by its active tab. */
const tabIdOf = (panelId: string, tab: string) => `${panelId}-tab-${tab}`;

/**
 * A row of tabs, as the ARIA tabs pattern has them: one tab stop (the active tab; roving tabindex), Left and Right move
 * to the previous and next tab (wrapping), Home and End to the first and last, each selecting the tab it moves to, and
 * every tab controls the one TabPanel, which shows the active tab's content.
 */
export function Tabs<T extends string>({tabs, active, onChange, label, panelId, testId}: TabsProps<T>) {
    const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
        const at = tabs.findIndex((tab) => tab.id === active);
        const next = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tabs.length - 1}[event.key];
        if (next === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
        event.preventDefault();
        const index = (next + tabs.length) % tabs.length;
        event.currentTarget.querySelectorAll<HTMLElement>("[role=tab]")[index]?.focus();
        if (index !== at) onChange(tabs[index].id);
    };
    return (
        <div className="tabs" role="tablist" aria-label={label} data-testid={testId} onKeyDown={onKeyDown}>
            {tabs.map((tab) => (
                <button key={tab.id} type="button" role="tab" id={tabIdOf(panelId, tab.id)} aria-selected={tab.id === active} aria-controls={panelId}
                    tabIndex={tab.id === active ? 0 : -1} className={tab.id === active ? "active" : ""}
                    onClick={() => onChange(tab.id)} data-testid={testId ? `${testId}-${tab.id}` : undefined}>
                    {tab.label}
                    {tab.badge && <span className="tab-badge">{tab.badge}</span>}
                </button>
            ))}
        </div>
    );
}

/** What the active tab of the Tabs with the same `id` (their panelId) shows, labelled by that tab. */
export function TabPanel({id, active, className, testId, children}: {id: string, active: string, className?: string, testId?: string, children: ReactNode}) {
    return <div role="tabpanel" id={id} aria-labelledby={tabIdOf(id, active)} className={className} data-testid={testId}>{children}</div>;
}

/** Copies text to the clipboard and says so for a moment. */
export function CopyButton({text, testId}: {text: () => string, testId?: string}) {
    const [copied, setCopied] = useState(false);
    return (
        <button type="button" className="btn btn-sm" data-testid={testId} onClick={async () => {
            await navigator.clipboard.writeText(text());
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
        }}>{copied ? "Copied" : "Copy"}</button>
    );
}

/** The right-hand column of a playground: settings that shape the request. */
export function SidePanel({children}: {children: ReactNode}) {
    return <aside className="side-panel">{children}</aside>;
}

/** A textarea that grows with its text (up to a cap set in CSS), so messages read like messages. */
export function AutoTextarea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
    const ref = useRef<HTMLTextAreaElement>(null);
    useLayoutEffect(() => {
        const element = ref.current;
        if (!element) return;
        const fit = () => {
            element.style.height = "auto";
            element.style.height = `${element.scrollHeight + 2}px`;
        };
        fit();
        // The text re-wraps when the column changes width (a panel opens, the window resizes).
        let width = element.clientWidth;
        const observer = new ResizeObserver(() => {
            if (element.clientWidth === width) return;
            width = element.clientWidth;
            fit();
        });
        observer.observe(element);
        return () => observer.disconnect();
    }, [props.value]);
    return <textarea ref={ref} rows={1} {...props} className={`input textarea ${props.className ?? ""}`} />;
}
