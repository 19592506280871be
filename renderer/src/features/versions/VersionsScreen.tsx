// Saved prompts and question sets with their versions: pick an item, see its versions newest first (note, when, what it
// holds), open one where it was made, and compare any two side by side.
import {useState} from "react";
import type {PromptVersion} from "../../../../client/experiments/types.ts";
import {bodyVariables} from "../../../../client/experiments/variables.ts";
import {ActionMessage, type ActionMessageValue} from "../../ui/ActionMessage.tsx";
import {Icon} from "../../ui/controls.tsx";
import {DiffView} from "./DiffView.tsx";
import {ImportOpenAiPrompt} from "./ImportOpenAiPrompt.tsx";
import {requestOpen} from "./openRequest.ts";
import {deleteItem, kindOf, promptKindNames, restoreItem, useItemVersions, useVersionsStore, type PromptItem} from "./versionStore.ts";
import "./versions.css";

type Message = ActionMessageValue;

export function VersionsScreen() {
    const items = useVersionsStore((state) => state.items);
    const [selected, setSelected] = useState<string | null>(null);
    const [message, setMessage] = useState<Message | null>(null);
    const item = items.find((candidate) => candidate.itemId === selected) ?? items[0];
    return (
        <div className="page versions-page" data-testid="versions-screen">
            <section className="card">
                <div className="card-title-row">
                    <h3>Saved prompts</h3>
                    <ImportOpenAiPrompt onResult={(result, itemId) => {
                        setMessage(result);
                        if (itemId !== null) setSelected(itemId);
                    }} />
                </div>
                <p className="muted small">
                    Save a version from the Chat or Responses playground (Parameters tab) or from the Decision studio. A version keeps everything
                    the request sends (messages or input, tools, format, parameters) and is never changed: experiments run versions, and
                    {" {{column}}"} in a prompt takes each dataset row's cell. Presets stay the quick settings of a playground. Import an OpenAI prompt
                    brings in the versions of a prompt kept at OpenAI (its JSON as the API returns it), a version each.
                </p>
                {message && <ActionMessage message={message} onDone={setMessage} undone="Restored." testId="versions-message" />}
                {items.length === 0 ? <div className="empty-state">No saved versions yet.</div> : (
                    <table className="table" data-testid="prompt-items">
                        <thead><tr><th>Name</th><th>Kind</th><th>Versions</th><th>Last saved</th><th><span className="sr-only">Actions</span></th></tr></thead>
                        <tbody>
                            {items.map((candidate) => (
                                <tr key={candidate.itemId} className={candidate === item ? "is-selected" : undefined} data-testid="prompt-item" aria-selected={candidate === item}>
                                    <td><button type="button" className="link-btn strong" onClick={() => setSelected(candidate.itemId)}>{candidate.itemName}</button></td>
                                    <td><span className={`badge kind-${candidate.kind === "decision" ? "decisions" : candidate.kind}`}>{promptKindNames[candidate.kind]}</span></td>
                                    <td className="mono">{candidate.latest}</td>
                                    <td className="small">{new Date(candidate.updatedAt).toLocaleString()}</td>
                                    <td>
                                        <button type="button" className="icon-btn danger" aria-label={`Delete ${candidate.itemName} and its versions`} title="Delete (with Undo)"
                                            onClick={async () => {
                                                const removed = await deleteItem(candidate.itemId);
                                                setMessage(removed.ok ? {ok: true, text: `Deleted "${candidate.itemName}" and its ${removed.versions.length} versions.`, undo: () => void restoreItem(removed).then((restored) => {
                                                    if (!restored.ok) setMessage({ok: false, text: restored.text});
                                                })} : {ok: false, text: removed.text});
                                            }}><Icon name="close" /></button>
                                    </td>
                                </tr>
                            ))}
                        </tbody>
                    </table>
                )}
            </section>
            {item && <ItemVersions key={item.itemId} item={item} />}
        </div>
    );
}

/** The Open button's text: where the version opens. */
const openLabel = (version: PromptVersion) => kindOf(version.prompt) === "decision" ? "Open in studio" : `Open in ${promptKindNames[kindOf(version.prompt)]}`;

/** What a version holds, in a few words. */
function describeVersion(version: PromptVersion): string {
    const prompt = version.prompt;
    if (prompt.kind === "decision") {
        const count = prompt.questionSet.questions?.length ?? 0;
        return `${count} question${count === 1 ? "" : "s"} · input: ${prompt.input.kind === "template" ? `template ${prompt.input.template}`
            : prompt.input.columns === undefined ? "row as JSON (the columns the model sees)" : `row as JSON: ${prompt.input.columns.join(", ")}`}`;
    }
    const body = prompt.body;
    const parts: string[] = [];
    if (Array.isArray(body.messages)) parts.push(`${body.messages.length} message${body.messages.length === 1 ? "" : "s"}`);
    if (body.instructions !== undefined) parts.push("instructions");
    if (body.input !== undefined) parts.push("input");
    if (Array.isArray(body.tools)) parts.push(`${body.tools.length} tool${body.tools.length === 1 ? "" : "s"}`);
    if (body.response_format !== undefined) parts.push(String((body.response_format as {type?: unknown}).type ?? "response_format"));
    const variables = bodyVariables(body);
    if (variables.length > 0) parts.push(`variables: ${variables.join(", ")}`);
    return parts.join(" · ");
}

/** The versions of one item, newest first; tick two to compare them. */
function ItemVersions({item}: {item: PromptItem}) {
    const versions = useItemVersions(item.itemId);
    // The two newest are compared until the person ticks others (the versions may still be on their way at first).
    const [chosen, setPicked] = useState<number[] | null>(null);
    const picked = chosen ?? versions.slice(0, 2).map((version) => version.version);
    const toggle = (number: number) => setPicked(picked.includes(number) ? picked.filter((value) => value !== number) : [...picked, number].slice(-2));
    const compared = versions.filter((version) => picked.includes(version.version)).sort((a, b) => a.version - b.version);
    return (
        <>
            <section className="card" data-testid="item-versions">
                <div className="card-title-row">
                    <h3>Versions of {item.itemName}</h3>
                    <span className="muted small">newest first · tick two to compare</span>
                </div>
                <table className="table">
                    <thead><tr><th>Compare</th><th>Version</th><th>Note</th><th>Holds</th><th>Saved</th><th><span className="sr-only">Open</span></th></tr></thead>
                    <tbody>
                        {versions.map((version) => (
                            <tr key={version.version} data-testid="version-row" data-version={version.version}>
                                <td><input type="checkbox" checked={picked.includes(version.version)} aria-label={`Compare version ${version.version}`}
                                    data-testid="version-compare" onChange={() => toggle(version.version)} /></td>
                                <td className="mono strong">v{version.version}</td>
                                <td data-testid="version-note-text">{version.note || <span className="muted">(no note)</span>}</td>
                                <td className="small">{describeVersion(version)}</td>
                                <td className="small">{new Date(version.createdAt).toLocaleString()}</td>
                                <td>
                                    <button type="button" className="btn btn-sm" data-testid="version-open" aria-label={`${openLabel(version)}: version ${version.version}`}
                                        onClick={() => requestOpen(version)}>{openLabel(version)}</button>
                                </td>
                            </tr>
                        ))}
                    </tbody>
                </table>
            </section>
            {compared.length === 2 && (
                <section className="card">
                    <div className="card-title-row"><h3>Version {compared[0].version} → version {compared[1].version}</h3></div>
                    <DiffView before={compared[0]} after={compared[1]} />
                </section>
            )}
        </>
    );
}
