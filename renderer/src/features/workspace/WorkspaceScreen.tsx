// The Workspace screen: the local engine as a team server. Organizations and workspaces, a workspace's
// balance, keys (and which one this app uses), prices, rate limits and usage, all through the engine's admin API.
import {useState} from "react";
import type {Organization, Workspace} from "../../../../protocol/admin/contract.ts";
import {displayMoney, formatMoney, moneyUnit, parseMoney} from "../../../../protocol/admin/money.ts";
import {adminApi} from "../../gateway/adminApi.ts";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {KeysCard} from "./KeysCard.tsx";
import {PricesCard, RateLimitsCard} from "./PricingCards.tsx";
import {UsageCard} from "./UsageCard.tsx";
import {useAdminMutation, useOrganizations, useWorkspaces, useWorkspaceScreenStore} from "./workspaceData.ts";
import "./workspace.css";

export function WorkspaceScreen() {
    const {data: state} = useGatewayState();
    const connection = activeConnection(state);
    if (connection.kind === "remote") return <RemoteNote name={connection.name} />;
    return <LocalWorkspaces />;
}

/** A hosted service keeps its own accounts: the app has nothing to edit there, and says where to go. */
function RemoteNote({name}: {name: string}) {
    return (
        <div className="page" data-testid="workspace-screen">
            <section className="card workspace-remote" data-testid="workspace-remote">
                <h3>Workspaces on {name}</h3>
                <p>The hosted service manages its workspaces, API keys, credits, prices, rate limits and usage in its own console;
                    this app only sends requests with the key stored for this connection.</p>
                <p className="muted small">To run your own team server, switch to the local engine: its workspaces are managed here.</p>
            </section>
        </div>
    );
}

function LocalWorkspaces() {
    const organizations = useOrganizations();
    const workspaces = useWorkspaces();
    const chosen = useWorkspaceScreenStore((screen) => screen.workspaceId);
    const list = workspaces.data?.workspaces ?? [];
    const workspace = list.find((candidate) => candidate.id === chosen) ?? list[0];
    const failure = organizations.error ?? workspaces.error;
    return (
        <div className="page workspace-page" data-testid="workspace-screen">
            <div className="workspace-side">
                <OrganizationsCard organizations={organizations.data?.organizations ?? []} workspaces={list} selected={workspace?.id} />
                {failure && <ApiErrorView error={toErrorInfo(failure)} />}
            </div>
            <div className="workspace-main">
                {workspace == null
                    ? <div className="empty-state" data-testid="workspace-empty">
                        No workspace yet. Create an organization and a workspace: from then on the local engine is a team server, and every
                        request (this app's too) needs one of the workspace's keys.
                    </div>
                    : <WorkspaceDetail key={workspace.id} workspace={workspace} />}
            </div>
        </div>
    );
}

/** Organizations with their workspaces (one is shown on the right), and the forms that add them. */
function OrganizationsCard({organizations, workspaces, selected}: {organizations: Organization[], workspaces: Workspace[], selected?: string}) {
    const select = useWorkspaceScreenStore((screen) => screen.select);
    const [organizationName, setOrganizationName] = useState("");
    const [workspaceName, setWorkspaceName] = useState("");
    const [organizationId, setOrganizationId] = useState("");
    const createOrganization = useAdminMutation(adminApi.createOrganization);
    const createWorkspace = useAdminMutation(({organizationId: id, name}: {organizationId: string, name: string}) => adminApi.createWorkspace(id, name));
    const targetOrganization = organizationId || organizations[0]?.id || "";
    const failure = createOrganization.error ?? createWorkspace.error;
    return (
        <section className="card" data-testid="organizations">
            <div className="card-title-row"><h3>Organizations</h3></div>
            {organizations.length === 0 && <p className="muted small">None yet.</p>}
            {organizations.map((organization) => (
                <div key={organization.id} className="organization">
                    <div className="organization-name">{organization.name}</div>
                    <ul className="workspace-list">
                        {workspaces.filter((workspace) => workspace.organizationId === organization.id).map((workspace) => (
                            <li key={workspace.id}>
                                <button type="button" className={`workspace-item${workspace.id === selected ? " active" : ""}`} onClick={() => select(workspace.id)}
                                    data-testid="workspace-item" aria-current={workspace.id === selected ? "true" : undefined}>
                                    <span>{workspace.name}</span>
                                    <span className={`badge ${workspace.activatedAt == null ? "badge-warn" : "badge-ok"}`}>{workspace.activatedAt == null ? "not activated" : "active"}</span>
                                </button>
                            </li>
                        ))}
                    </ul>
                </div>
            ))}
            <form className="inline-form" onSubmit={(event) => {
                event.preventDefault();
                createOrganization.mutate(organizationName.trim(), {onSuccess: ({organization}) => {
                    setOrganizationName("");
                    setOrganizationId(organization.id);
                }});
            }}>
                <input className="input" required placeholder="New organization" value={organizationName} onChange={(event) => setOrganizationName(event.target.value)}
                    aria-label="Organization name" data-testid="organization-name" />
                <button type="submit" className="btn" disabled={createOrganization.isPending} aria-label="Add organization"
                    data-testid="organization-create">Add</button>
            </form>
            {organizations.length > 0 && (
                <form className="inline-form" onSubmit={(event) => {
                    event.preventDefault();
                    createWorkspace.mutate({organizationId: targetOrganization, name: workspaceName.trim()}, {onSuccess: ({workspace}) => {
                        setWorkspaceName("");
                        select(workspace.id);
                    }});
                }}>
                    {/* Which organization a new workspace goes under: named when there is one, picked when there are several. */}
                    {organizations.length > 1 ? (
                        <select className="input" value={targetOrganization} onChange={(event) => setOrganizationId(event.target.value)} aria-label="Organization of the new workspace">
                            {organizations.map((organization) => <option key={organization.id} value={organization.id}>{organization.name}</option>)}
                        </select>
                    ) : <span className="muted small" data-testid="workspace-organization">in {organizations[0].name}:</span>}
                    <input className="input" required placeholder="New workspace" value={workspaceName} onChange={(event) => setWorkspaceName(event.target.value)}
                        aria-label="Workspace name" data-testid="workspace-name" />
                    <button type="submit" className="btn" disabled={createWorkspace.isPending} aria-label="Add workspace"
                        data-testid="workspace-create">Add</button>
                </form>
            )}
            {failure && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}

function WorkspaceDetail({workspace}: {workspace: Workspace}) {
    return (
        <>
            <BalanceCard workspace={workspace} />
            <KeysCard workspace={workspace} />
            <UsageCard workspace={workspace} />
            <div className="workspace-pair">
                <PricesCard />
                <RateLimitsCard workspace={workspace} />
            </div>
        </>
    );
}

/** Spec §3: a workspace serves once activated (the local stand-in for a payment method) and while it has credit. */
function BalanceCard({workspace}: {workspace: Workspace}) {
    const [amount, setAmount] = useState("");
    const activate = useAdminMutation(adminApi.activateWorkspace);
    const addCredits = useAdminMutation((text: string) => adminApi.addCredits(workspace.id, parseMoney(text)));
    const failure = activate.error ?? addCredits.error;
    return (
        <section className="card balance-card" data-testid="balance-card">
            <div className="balance-head">
                <div>
                    <h3>{workspace.name}</h3>
                    <span className="mono small muted">{workspace.id}</span>
                </div>
                <div className="balance-figure">
                    <span className="card-label">Balance</span>
                    <span className={`balance-amount mono${workspace.balanceMicros <= 0 ? " low" : ""}`} data-testid="balance"
                        title={`${formatMoney(workspace.balanceMicros)} ${moneyUnit} exactly`}>{displayMoney(workspace.balanceMicros)}</span>
                    <span className="muted small" title={`${formatMoney(workspace.creditedMicros)} ${moneyUnit} exactly`}>{moneyUnit}, of {displayMoney(workspace.creditedMicros)} added</span>
                </div>
            </div>
            <div className="balance-actions">
                {workspace.activatedAt == null
                    ? <>
                        <span className="badge badge-warn">not activated: requests get 402</span>
                        <button type="button" className="btn btn-primary" disabled={activate.isPending} onClick={() => activate.mutate(workspace.id)}
                            data-testid="workspace-activate">Activate</button>
                    </>
                    : <span className="badge badge-ok" data-testid="workspace-activated">activated {new Date(workspace.activatedAt).toLocaleDateString()}</span>}
                <form className="inline-form" onSubmit={(event) => {
                    event.preventDefault();
                    addCredits.mutate(amount, {onSuccess: () => setAmount("")});
                }}>
                    <input className="input mono" required inputMode="decimal" placeholder="Amount, e.g. 25 or 0.50" value={amount}
                        onChange={(event) => setAmount(event.target.value)} aria-label="Credits to add" data-testid="credits-amount" />
                    <button type="submit" className="btn" disabled={addCredits.isPending} data-testid="credits-add">Add credits</button>
                </form>
            </div>
            {failure && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}
