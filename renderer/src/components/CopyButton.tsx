import {useState} from "react";

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
