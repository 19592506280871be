type Props<T extends string> = {tabs: ReadonlyArray<{id: T, label: string, badge?: string | null}>, active: T, onChange: (id: T) => void, testId?: string};

export function Tabs<T extends string>({tabs, active, onChange, testId}: Props<T>) {
    return (
        <div className="tabs" role="tablist" data-testid={testId}>
            {tabs.map((tab) => (
                <button key={tab.id} type="button" role="tab" aria-selected={tab.id === active} className={tab.id === active ? "active" : ""}
                    onClick={() => onChange(tab.id)} data-testid={testId ? `${testId}-${tab.id}` : undefined}>
                    {tab.label}
                    {tab.badge && <span className="tab-badge">{tab.badge}</span>}
                </button>
            ))}
        </div>
    );
}
