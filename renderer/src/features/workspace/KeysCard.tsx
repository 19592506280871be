// A workspace's API keys (spec §5): create (owner, private or shared), rotate, revoke, the secret shown once, and which
// key this app's own requests use (the gateway keeps that one's secret; it never comes back to the page).
import {useEffect, useRef, useState} from "react";
import type {ApiKeyInfo, KeyOwner, Workspace} from "../../../../protocol/admin/contract.ts";
import {adminApi} from "../../gateway/adminApi.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {useGatewayMutation, useGatewayState} from "../../gateway/gatewayState.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {CopyButton} from "../../ui/controls.tsx";
import {useCodeKeyStore} from "./appKey.tsx";
import {type IssuedSecret, useAdminMutation, useKeys, useWorkspaceScreenStore} from "./workspaceData.ts";

/** The public start of the key this app's requests carry, from the gateway state; undefined when none is chosen. */
function useAppKeyHint(): string | undefined {
    const {data: state} = useGatewayState();
    return state?.connections.find((connection) => connection.kind === "local")?.keyHint;
}

export function KeysCard({workspace}: {workspace: Workspace}) {
    const keys = useKeys(workspace.id);
    const appKeyHint = useAppKeyHint();
    const issued = useWorkspaceScreenStore((screen) => screen.issued);
    const showIssued = useWorkspaceScreenStore((screen) => screen.showIssued);
    const rotate = useAdminMutation(async (key: ApiKeyInfo) => showIssued({...await adminApi.rotateKey(key.id), action: "rotated", previous: key}));
    const revoke = useAdminMutation((key: ApiKeyInfo) => adminApi.revokeKey(key.id));
    const stopUsing = useGatewayMutation((_: void) => gatewayApi.clearLocalKey());
    const [confirming, setConfirming] = useState<string | null>(null);
    const codeKey = useCodeKeyStore((state) => state.key);
    const chooseCodeKey = useCodeKeyStore((state) => state.choose);
    const list = keys.data?.keys ?? [];
    const appKey = list.find((key) => key.hint === appKeyHint);
    const failure = keys.error ?? rotate.error ?? revoke.error ?? stopUsing.error;
    return (
        <section className="card" data-testid="keys-card">
            <div className="card-title-row"><h3>API keys</h3></div>
            <div className={`app-key-line${appKeyHint == null || appKey?.state === "revoked" ? " warn" : ""}`} data-testid="app-key">
                {appKeyHint == null
                    ? <span>This app's own requests (playgrounds, decisions, scoring) use no workspace key: the engine refuses them. Create a key and choose "Use for this app's requests".</span>
                    : <>
                        <span>This app's requests use <b>{appKey?.name ?? "a key of another workspace"}</b> <span className="mono">{appKeyHint}…</span>
                            {appKey?.state === "revoked" && " — revoked: they now fail; choose another key"}</span>
                        <button type="button" className="btn btn-sm" disabled={stopUsing.isPending} onClick={() => stopUsing.mutate()} data-testid="app-key-clear">Stop using</button>
                    </>}
            </div>
            <CreateKeyForm workspaceId={workspace.id} />
            {list.length === 0
                ? <p className="muted small">No keys in this workspace yet.</p>
                : <table className="table keys-table">
                    <thead><tr><th>Name</th><th>Key</th><th>Owner</th><th>Access</th><th>State</th><th>Issued</th><th /></tr></thead>
                    <tbody>
                        {list.map((key) => (
                            <tr key={key.id} data-testid="key-row" data-key-name={key.name} className={key.state === "revoked" ? "revoked" : undefined}>
                                <td>{key.name}{key.hint === appKeyHint && <span className="badge badge-accent app-badge" data-testid="key-app-badge">this app</span>}</td>
                                <td className="mono small">{key.hint}…</td>
                                <td className="small">{key.owner.type === "user" ? key.owner.userId : "workspace"}</td>
                                <td className="small">{key.visibility}</td>
                                <td><span className={`badge ${key.state === "active" ? "badge-ok" : key.state === "revoked" ? "badge-danger" : "badge-warn"}`} data-testid="key-state">{key.state}</span></td>
                                <td className="small muted">{new Date(key.issuedAt).toLocaleString()}</td>
                                <td><div className="key-actions">
                                    {key.state !== "revoked" && <>
                                        <button type="button" className="btn btn-sm btn-ghost" disabled={codeKey?.hint === key.hint} title="View code names this key (its secret is not shown again)"
                                            onClick={() => chooseCodeKey({name: key.name, hint: key.hint})} data-testid="key-code">{codeKey?.hint === key.hint ? "In View code" : "View code"}</button>
                                        <button type="button" className="btn btn-sm" disabled={rotate.isPending} onClick={() => rotate.mutate(key)} data-testid="key-rotate">Rotate</button>
                                        {confirming === key.id
                                            ? <button type="button" className="btn btn-sm btn-danger" onClick={() => revoke.mutate(key, {onSettled: () => setConfirming(null)})}
                                                data-testid="key-revoke-confirm">Revoke now</button>
                                            : <button type="button" className="btn btn-sm" onClick={() => setConfirming(key.id)} data-testid="key-revoke">Revoke</button>}
                                    </>}
                                </div></td>
                            </tr>
                        ))}
                    </tbody>
                </table>}
            {failure && <ApiErrorView error={toErrorInfo(failure)} />}
            {issued != null && <SecretDialog issued={issued} wasAppKey={issued.previous != null && issued.previous.hint === appKeyHint} onClose={() => showIssued(null)} />}
        </section>
    );
}

/** Spec §5 rule 2: a key is owned by the workspace (and shared with it) or by a user, private to them or shared. */
function CreateKeyForm({workspaceId}: {workspaceId: string}) {
    const [name, setName] = useState("");
    const [ownerType, setOwnerType] = useState<"workspace" | "user">("workspace");
    const [userId, setUserId] = useState("");
    const [visibility, setVisibility] = useState<"private" | "shared">("private");
    const showIssued = useWorkspaceScreenStore((screen) => screen.showIssued);
    const create = useAdminMutation(async () => {
        const owner: KeyOwner = ownerType === "user" ? {type: "user", userId: userId.trim()} : {type: "workspace"};
        const issued = await adminApi.createKey({workspaceId, name: name.trim(), owner, visibility: ownerType === "user" ? visibility : "shared"});
        showIssued({...issued, action: "created"});
        setName("");
    });
    return (
        <>
            <form className="inline-form key-form" onSubmit={(event) => {
                event.preventDefault();
                create.mutate();
            }}>
                <input className="input" placeholder="Key name, e.g. app or ci" value={name} onChange={(event) => setName(event.target.value)} aria-label="Key name" data-testid="key-name" />
                <select className="input" value={ownerType} onChange={(event) => setOwnerType(event.target.value as "workspace" | "user")} aria-label="Owner" data-testid="key-owner">
                    <option value="workspace">Owned by the workspace</option>
                    <option value="user">Owned by a user</option>
                </select>
                {ownerType === "user" && <>
                    <input className="input" required placeholder="User id" value={userId} onChange={(event) => setUserId(event.target.value)} aria-label="User id" data-testid="key-user" />
                    <select className="input" value={visibility} onChange={(event) => setVisibility(event.target.value as "private" | "shared")} aria-label="Access">
                        <option value="private">Private to the user</option>
                        <option value="shared">Shared with the workspace</option>
                    </select>
                </>}
                <button type="submit" className="btn btn-primary" disabled={create.isPending} data-testid="key-create">Create key</button>
            </form>
            {create.error && <ApiErrorView error={toErrorInfo(create.error)} />}
        </>
    );
}

/**
 * The one showing of a secret (spec §5: stored as a hash only). From here it can become this app's key (the gateway
 * keeps it) or View code's (in memory); closing the dialog drops it from the page.
 */
function SecretDialog({issued, wasAppKey, onClose}: {issued: IssuedSecret, wasAppKey: boolean, onClose: () => void}) {
    const ref = useRef<HTMLDialogElement>(null);
    const useForApp = useGatewayMutation(gatewayApi.setLocalKey);
    const codeKey = useCodeKeyStore((state) => state.key);
    const chooseCodeKey = useCodeKeyStore((state) => state.choose);
    const {key, secret} = issued;
    useEffect(() => {
        ref.current?.showModal();
    }, []);
    return (
        <dialog ref={ref} className="secret-dialog" data-testid="secret-dialog" onClose={onClose} aria-labelledby="secret-title">
            <h3 id="secret-title">{issued.action === "created" ? `Key "${key.name}" created` : `Key "${key.name}" rotated`}</h3>
            <p>Copy the secret now: it is shown once. The engine keeps only a hash of it{issued.action === "rotated" ? ", and the old secret no longer works" : ""}.</p>
            <div className="secret-box">
                <code className="mono" data-testid="issued-secret">{secret}</code>
                <CopyButton testId="secret-copy" text={() => secret} />
            </div>
            {wasAppKey && !useForApp.isSuccess && <p className="field-warning">This app used this key's old secret: its requests fail until you use the new one.</p>}
            <div className="secret-actions">
                <button type="button" className="btn btn-primary" disabled={useForApp.isPending || useForApp.isSuccess} onClick={() => useForApp.mutate(secret)}
                    data-testid="use-for-app">{useForApp.isSuccess ? "This app uses it" : "Use for this app's requests"}</button>
                <button type="button" className="btn" disabled={codeKey?.secret === secret} onClick={() => chooseCodeKey({name: key.name, hint: key.hint, secret})}
                    data-testid="use-in-code">{codeKey?.secret === secret ? "View code uses it" : "Use in View code"}</button>
                <span className="spacer" />
                <button type="button" className="btn" onClick={() => ref.current?.close()} data-testid="secret-close">Done</button>
            </div>
            {useForApp.error && <ApiErrorView error={toErrorInfo(useForApp.error)} />}
        </dialog>
    );
}
