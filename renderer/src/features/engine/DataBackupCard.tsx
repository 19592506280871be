// Your data: "Export all data" downloads the app's database as one file (copied consistently, while the app runs), and
// "Import a backup…" puts such a file in place of it, after asking, keeping the current one aside in the data folder.
import {useRef, useState} from "react";
import {readApiError} from "../../../../client/sdk/index.ts";
import {gatewayPath} from "../../../../protocol/gateway/routes.ts";
import {gatewayHeaders} from "../../gateway/gatewayHeaders.ts";

const backupUrl = `/gateway/api${gatewayPath("exportAppData", {})}`;

export function DataBackupCard() {
    const input = useRef<HTMLInputElement>(null);
    const [message, setMessage] = useState<{ok: boolean, text: string} | null>(null);
    const [busy, setBusy] = useState(false);
    const restore = async (file: File) => {
        if (!confirm(`Replace all of the app's data (datasets, versions, runs, jobs, experiments, settings) with ${file.name}? ` +
            "The data it holds now is kept aside in the data folder, not deleted.")) return;
        setBusy(true);
        setMessage(null);
        try {
            const response = await fetch(backupUrl, {method: "POST", headers: {...gatewayHeaders(), "content-type": "application/vnd.sqlite3"}, body: file});
            if (!response.ok) throw await readApiError(response);
            const {keptAs} = await response.json() as {keptAs: string};
            setMessage({ok: true, text: `Restored ${file.name}. The data before it is kept as ${keptAs} in the data folder. Reloading…`});
            setTimeout(() => location.reload(), 1500);
        } catch (error) {
            setMessage({ok: false, text: `${file.name} was not restored: ${(error as Error).message}`});
        } finally {
            setBusy(false);
        }
    };
    return (
        <section className="card" data-testid="data-backup">
            <div className="card-title-row"><h3>Your data</h3></div>
            <p className="muted small">
                Everything the app keeps (datasets, prompt versions, runs, scoring jobs, experiments and settings) is one database in the app's
                data folder. Export it as one file to back it up or move it; importing a backup replaces what is here, which is kept aside.
            </p>
            <div className="row-gap wrap">
                <a className="btn btn-sm" href={backupUrl} download data-testid="data-export">Export all data</a>
                <button type="button" className="btn btn-sm" disabled={busy} data-testid="data-import" onClick={() => input.current?.click()}>Import a backup…</button>
                <input ref={input} type="file" hidden accept=".sqlite,application/vnd.sqlite3,application/octet-stream" data-testid="data-import-input" onChange={(event) => {
                    const file = event.target.files?.[0];
                    event.target.value = "";
                    if (file) void restore(file);
                }} />
            </div>
            {message && <div className={message.ok ? "muted small" : "field-error"} role={message.ok ? "status" : "alert"} data-testid="data-backup-message">{message.text}</div>}
        </section>
    );
}
