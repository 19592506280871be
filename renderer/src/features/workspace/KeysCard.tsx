// A workspace's API keys (spec §5): create (owner, private or shared), rotate, revoke, the secret shown once, and which
// key this app's own requests use (the gateway keeps that one's secret; it never comes back to the page).
import {Fragment, useEffect, useId, useRef, useState} from "react";
import type {ApiKeyInfo, KeyOwner, Workspace} from "../../../../protocol/admin/contract.ts";
import {adminApi} from "../../gateway/adminApi.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {useGatewayMutation, useGatewayState} from "../../gateway/gatewayState.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {CopyButton} from "../../ui/controls.tsx";
import {usePendingFocus} from "../../ui/focus.ts";
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
    // Rotating and revoking each end a secret that clients may hold: neither happens on one click.
    const [confirming, setConfirming] = useState<{id: string, action: KeyAction} | null>(null);
    // What was done, said where the focus goes when the buttons that did it are gone (a revoked key has none).
    const [done, setDone] = useState<string | null>(null);
    const card = useRef<HTMLElement>(null);
    const doneLine = useRef<HTMLParagraphElement>(null);
    const focusNext = usePendingFocus();
    /** A key's Rotate or Revoke button, found once the table has re-rendered. */
    const keyButton = (id: string, action: KeyAction) => () => card.current?.querySelector<HTMLElement>(`[data-key-id="${CSS.escape(id)}"] [data-testid=key-${action}]`);
    const codeKey = useCodeKeyStore((state) => state.key);
    const chooseCodeKey = useCodeKeyStore((state) => state.choose);
    const list = keys.data?.keys ?? [];
    const appKey = list.find((key) => key.hint === appKeyHint);
    const failure = keys.error ?? rotate.error ?? revoke.error ?? stopUsing.error;
    return (
        <section className="card" data-testid="keys-card" ref={card}>
            <div className="card-title-row"><h3>API keys</h3></div>
            <div className={`app-key-line${appKeyHint == null || appKey?.state === "revoked" ? " warn" : ""}`} data-testid="app-key">
                {appKeyHint == null
                    ? <span>This app's own requests (playgrounds, decisions, scoring) use no workspace key: the engine refuses them. Create a key and choose "Use for this app's requests".</span>
                    : <>
                        <span>This app's requests use <b>{appKey?.name ?? "a key not among this workspace's keys"}</b> <span className="mono">{appKeyHint}…</span>
                            {appKey === undefined && " — rotated since (its old secret no longer works: use the new one), or another workspace's key"}
                            {appKey?.state === "revoked" && " — revoked: they now fail; choose another key"}</span>
                        <button type="button" className="btn btn-sm" disabled={stopUsing.isPending} onClick={() => stopUsing.mutate()} data-testid="app-key-clear">Stop using</button>
                    </>}
            </div>
            <CreateKeyForm workspaceId={workspace.id} />
            {list.length === 0
                ? <p className="muted small">No keys in this workspace yet.</p>
                : <table className="table keys-table">
                    <thead><tr><th>Key</th><th>Owner · access</th><th>State</th><th>Issued</th><th className="key-actions-head">Actions</th></tr></thead>
                    <tbody>
                        {list.map((key) => (
                            <Fragment key={key.id}>
                                <tr data-testid="key-row" data-key-name={key.name} data-key-id={key.id} className={key.state === "revoked" ? "revoked" : undefined}>
                                    <td>
                                        <div className="key-name">{key.name}{key.hint === appKeyHint && <span className="badge badge-accent app-badge" data-testid="key-app-badge">this app</span>}</div>
                                        <div className="mono small muted key-hint" title="The key's public start; its secret is shown once, when issued">{key.hint}…</div>
                                    </td>
                                    <td>
                                        <div className="small key-owner">{key.owner.type === "user" ? key.owner.userId : "workspace"}</div>
                                        <div className="small muted">{key.visibility}</div>
                                    </td>
                                    <td><span className={`badge ${key.state === "active" ? "badge-ok" : key.state === "revoked" ? "badge-danger" : "badge-warn"}`} data-testid="key-state">{key.state}</span></td>
                                    <td className="small muted key-issued" title={new Date(key.issuedAt).toLocaleString()}>{new Date(key.issuedAt).toLocaleDateString()}</td>
                                    <td><div className="key-actions">
                                        {key.state !== "revoked" && <>
                                            <button type="button" className="btn btn-sm btn-ghost" disabled={codeKey?.hint === key.hint} title="View code names this key (its secret is not shown again)"
                                                onClick={() => chooseCodeKey({name: key.name, hint: key.hint})} data-testid="key-code">{codeKey?.hint === key.hint ? "In View code" : "View code"}</button>
                                            <button type="button" className="btn btn-sm" disabled={rotate.isPending} aria-expanded={confirming?.id === key.id && confirming.action === "rotate"}
                                                onClick={() => {
                                                    setDone(null);
                                                    setConfirming({id: key.id, action: "rotate"});
                                                }} data-testid="key-rotate">Rotate</button>
                                            <button type="button" className="btn btn-sm" aria-expanded={confirming?.id === key.id && confirming.action === "revoke"}
                                                onClick={() => {
                                                    setDone(null);
                                                    setConfirming({id: key.id, action: "revoke"});
                                                }} data-testid="key-revoke">Revoke</button>
                                        </>}
                                    </div></td>
                                </tr>
                                {confirming?.id === key.id && key.state !== "revoked" && (
                                    <tr className="key-confirm-row" data-testid="key-confirm" data-key-name={key.name} data-action={confirming.action}>
                                        <td colSpan={5}>
                                            <KeyConfirmation keyInfo={key} action={confirming.action} isAppKey={key.hint === appKeyHint} busy={rotate.isPending || revoke.isPending}
                                                onCancel={() => {
                                                    // Back to the button that asked.
                                                    focusNext(keyButton(key.id, confirming.action));
                                                    setConfirming(null);
                                                }}
                                                onConfirm={() => (confirming.action === "rotate" ? rotate : revoke).mutate(key, {onSettled: (_, error) => {
                                                    // A rotated key's new secret shows in a dialog, which takes the focus; a revoked key has no
                                                    // buttons left, so the line that says it was revoked takes it; after a failure, the button that asked.
                                                    if (error != null) focusNext(keyButton(key.id, confirming.action));
                                                    else if (confirming.action === "revoke") {
                                                        setDone(`Revoked “${key.name}”: every request that sends it is refused from now on.`);
                                                        focusNext(() => doneLine.current);
                                                    }
                                                    setConfirming(null);
                                                }})} />
                                        </td>
                                    </tr>
                                )}
                            </Fragment>
                        ))}
                    </tbody>
                </table>}
            {done && <p className="field-ok key-done" role="status" tabIndex={-1} ref={doneLine} data-testid="key-done">{done}</p>}
            {failure && <ApiErrorView error={toErrorInfo(failure)} />}
            {issued != null && <SecretDialog issued={issued} wasAppKey={issued.previous != null && issued.previous.hint === appKeyHint} onClose={() => {
                // A rotated key's dialog gives the focus back to its Rotate button (the one that asked went with the confirmation).
                if (issued.action === "rotated") focusNext(keyButton(issued.key.id, "rotate"));
                showIssued(null);
            }} />}
        </section>
    );
}

type KeyAction = "rotate" | "revoke";

/**
 * What rotating or revoking a key does to the clients that hold its secret, said before it happens, with the button
 * that does it and one that leaves the key as it is.
 */
function KeyConfirmation({keyInfo, action, isAppKey, busy, onConfirm, onCancel}: {
    keyInfo: ApiKeyInfo, action: KeyAction, isAppKey: boolean, busy: boolean, onConfirm: () => void, onCancel: () => void
}) {
    const appClause = isAppKey ? ", this app's own requests included" : "";
    const keep = useRef<HTMLButtonElement>(null);
    const textId = useId();
    // The confirmation takes the focus as it opens, on the answer that changes nothing (as a dialog would); Escape is that answer.
    useEffect(() => keep.current?.focus(), []);
    return (
        <div className="key-confirm" role="group" aria-label={`${action === "rotate" ? "Rotate" : "Revoke"} ${keyInfo.name}?`} aria-describedby={textId}
            onKeyDown={(event) => {
                if (event.key !== "Escape") return;
                event.preventDefault();
                onCancel();
            }}>
            <p id={textId} data-testid="key-confirm-text">
                {action === "rotate"
                    ? <>Rotate <b>{keyInfo.name}</b>? A new secret is issued and shown once. The old secret stops working at once for every client that
                        sends it{appClause}{isAppKey ? " until you choose the new one for this app" : ""}: update them with the new secret.</>
                    : <>Revoke <b>{keyInfo.name}</b>? Every request that sends it is refused from now on{appClause}. A revoked key cannot be restored.</>}
            </p>
            <div className="key-confirm-actions">
                <button type="button" className="btn btn-sm btn-danger" disabled={busy} onClick={onConfirm} data-testid={`key-${action}-confirm`}>
                    {action === "rotate" ? "Rotate now" : "Revoke now"}
                </button>
                <button type="button" className="btn btn-sm btn-ghost" ref={keep} onClick={onCancel} data-testid="key-confirm-cancel">Keep the key as it is</button>
            </div>
        </div>
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
                    title="The gateway keeps it across restarts (in the app's data folder, never in the page) and sends it on this app's requests to its engine" data-testid="use-for-app">{useForApp.isSuccess ? "This app uses it" : "Use for this app's requests"}</button>
                <button type="button" className="btn" disabled={codeKey?.secret === secret} onClick={() => chooseCodeKey({name: key.name, hint: key.hint, secret})}
                    data-testid="use-in-code">{codeKey?.secret === secret ? "View code uses it" : "Use in View code"}</button>
                <span className="spacer" />
                <button type="button" className="btn" onClick={() => ref.current?.close()} data-testid="secret-close">Done</button>
            </div>
            {useForApp.error && <ApiErrorView error={toErrorInfo(useForApp.error)} />}
        </dialog>
    );
}
