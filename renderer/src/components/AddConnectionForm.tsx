import {useState} from "react";
import {gatewayApi} from "../gateway/gatewayApi.ts";
import {useGatewayMutation} from "../gateway/useGatewayMutation.ts";
import {toErrorInfo} from "../runs/toErrorInfo.ts";
import {ApiErrorView} from "./ApiErrorView.tsx";

/**
 * Adds a remote profile. The key is posted once to the gateway, which keeps it (vault, or memory in
 * browser mode) and never sends it back; the field is cleared as soon as the request is sent.
 */
export function AddConnectionForm({mode}: {mode: "electron" | "web"}) {
    const [name, setName] = useState("");
    const [baseUrl, setBaseUrl] = useState("");
    const [apiKey, setApiKey] = useState("");
    const add = useGatewayMutation(gatewayApi.addConnection);
    return (
        <section className="card" data-testid="add-connection">
            <div className="card-title-row"><h3>Add a remote connection</h3></div>
            <form className="form-grid" autoComplete="off" onSubmit={(event) => {
                event.preventDefault();
                const key = apiKey;
                setApiKey("");
                add.mutate({name: name.trim(), baseUrl: baseUrl.trim(), ...(key ? {apiKey: key} : {})}, {
                    onSuccess: () => {
                        setName("");
                        setBaseUrl("");
                    }
                });
            }}>
                <label>Name<input className="input" required value={name} onChange={(event) => setName(event.target.value)} placeholder="Production" data-testid="connection-name" /></label>
                <label>Base URL<input className="input mono" required type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)}
                    placeholder="https://api.example.com" data-testid="connection-base-url" /></label>
                <label>API key<input className="input mono" type="password" value={apiKey} onChange={(event) => setApiKey(event.target.value)}
                    placeholder="ck_…" autoComplete="new-password" data-testid="connection-key" /></label>
                <div className="form-actions">
                    <button type="submit" className="btn btn-primary" disabled={add.isPending}>Add connection</button>
                    <span className="muted small">
                        {mode === "web" ? "Browser mode: the gateway keeps the key in memory until it stops." : "The key is stored encrypted by the app."} The page never sees it again.
                    </span>
                </div>
            </form>
            {add.error && <ApiErrorView error={toErrorInfo(add.error)} />}
        </section>
    );
}
