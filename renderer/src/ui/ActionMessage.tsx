// What an action did, in one line under it: green when it worked, red when it did not, with Undo when it can be taken
// back (a delete, a draft replaced) and one more way out when the message offers one ("Keep the first 100,000 rows").
export type ActionMessageValue = {ok: boolean, text: string, undo?: () => void, action?: {label: string, run: () => void}};

type Props = {
    message: ActionMessageValue,
    /** The message after Undo or the action was clicked: what to show instead (null: nothing). */
    onDone: (next: ActionMessageValue | null) => void,
    /** What Undo says it did. */
    undone?: string,
    /** Test ids: `<testId>`, `<testId>-undo`, `<testId>-action`. */
    testId: string
};

export function ActionMessage({message, onDone, undone = "Undone.", testId}: Props) {
    return (
        <div className={message.ok ? "field-ok" : "field-error"} role="status" data-testid={testId}>
            {message.text}
            {message.action && <> <button type="button" className="link-btn" data-testid={`${testId}-action`} onClick={() => {
                onDone(null);
                message.action!.run();
            }}>{message.action.label}</button></>}
            {message.undo && <> <button type="button" className="link-btn" data-testid={`${testId}-undo`} onClick={() => {
                message.undo!();
                onDone({ok: true, text: undone});
            }}>Undo</button></>}
        </div>
    );
}
