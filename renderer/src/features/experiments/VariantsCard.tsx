// The variants of the experiment being set up: each a saved version sent to a connection and model with parameter
// overrides and, for the cost column, prices.
import {modelIds} from "../../../../protocol/limits.ts";
import {useGatewayState} from "../../gateway/gatewayState.ts";
import {Icon} from "../../ui/controls.tsx";
import {useModelsState} from "../models/models.ts";
import {promptKindNames, useItemVersions, useVersionsStore} from "../versions/versionStore.ts";
import {newVariant, updateVariant, useDraftStore, type VariantDraft} from "./draftStore.ts";
import {versionOf} from "./buildSpec.ts";

export function VariantsCard() {
    const variants = useDraftStore((state) => state.draft.variants);
    const set = useDraftStore((state) => state.set);
    return (
        <section className="card exp-variants" data-testid="exp-variants">
            <div className="card-title-row">
                <h3>Variants</h3>
                <span className="muted small">The first of each kind (question set, chat prompt) is the baseline: every other of its kind is compared with it.</span>
                <button type="button" className="btn btn-sm push-right" data-testid="exp-add-variant"
                    onClick={() => set({variants: [...variants, newVariant(variants, {connection: variants.at(-1)?.connection ?? "local"})]})}>
                    <Icon name="plus" /> Add variant
                </button>
            </div>
            {variants.length === 0 && <div className="empty-state">No variant yet.</div>}
            <div className="exp-variant-list">
                {variants.map((variant, index) => (
                    <VariantRow key={variant.id} variant={variant} index={index}
                        onRemove={() => set({variants: variants.filter((other) => other.id !== variant.id)})} />
                ))}
            </div>
        </section>
    );
}

type VariantRowProps = {variant: VariantDraft, index: number, onRemove: () => void};

function VariantRow({variant, index, onRemove}: VariantRowProps) {
    const items = useVersionsStore((state) => state.items);
    const versions = useItemVersions(variant.itemId);
    const {data: state} = useGatewayState();
    const connections = state?.connections ?? [{id: "local", kind: "local" as const, name: "Local engine", hasKey: false}];
    const change = (patch: Partial<VariantDraft>) => updateVariant(variant.id, patch);
    const version = versionOf(variant);
    const chat = version?.prompt.kind === "chat";
    const label = (text: string) => `Variant ${variant.name || index + 1}: ${text}`;
    const local = variant.connection === "local";
    const {data: library} = useModelsState();
    // On the local engine a variant's model is a library model, loaded before its cells run (one model at a time);
    // a server is asked for svc-1 on its own URL, so there the field only names what the server runs.
    const modelChoices = local ? [...(library?.builtIn ? [library.builtIn] : []), ...(library?.models ?? [])].map((model) => model.id) : [];
    return (
        <div className="exp-variant" data-testid="exp-variant" data-name={variant.name}>
            <input className="input input-sm exp-variant-name mono" value={variant.name} aria-label={label("name")} maxLength={24}
                data-testid="exp-variant-name" onChange={(event) => change({name: event.target.value})} />
            <select className="input input-sm exp-variant-item" value={variant.itemId ?? ""} aria-label={label("prompt or question set")} data-testid="exp-variant-item"
                onChange={(event) => change({itemId: event.target.value === "" ? null : event.target.value, version: null})}>
                <option value="">Prompt or question set…</option>
                {items.map((item) => <option key={item.itemId} value={item.itemId}>{item.itemName} ({promptKindNames[item.kind]})</option>)}
            </select>
            <select className="input input-sm exp-variant-version" value={variant.version ?? ""} aria-label={label("version")} data-testid="exp-variant-version" disabled={variant.itemId === null}
                onChange={(event) => change({version: event.target.value === "" ? null : Number(event.target.value)})}>
                <option value="">latest{versions[0] ? ` (v${versions[0].version})` : ""}</option>
                {versions.map((item) => <option key={item.version} value={item.version}>v{item.version}{item.note ? ` · ${item.note}` : ""}</option>)}
            </select>
            <select className="input input-sm exp-variant-connection" value={variant.connection} aria-label={label("connection")} data-testid="exp-variant-connection"
                onChange={(event) => change({connection: event.target.value})}>
                {connections.map((connection) => <option key={connection.id} value={connection.id}>{connection.name}</option>)}
            </select>
            {chat && (
                <input className="input input-sm mono exp-variant-model" value={variant.model} placeholder={local ? "the loaded model" : modelIds.chat} aria-label={label("model")}
                    title={local ? "A model of the library: the local engine loads it before this variant's rows run, one model at a time" : "The connection's server answers as svc-1; name the model it runs, for the report"}
                    data-testid="exp-variant-model" list={`exp-model-ids-${variant.id}`} onChange={(event) => change({model: event.target.value})} />
            )}
            <input className="input input-sm mono exp-variant-params" value={variant.params} placeholder='{"temperature": 0}' aria-label={label("parameter overrides (JSON)")}
                title="Parameters that override the version's own, as a JSON object" data-testid="exp-variant-params" onChange={(event) => change({params: event.target.value})} />
            <span className="exp-prices">
                <label className="exp-price-field">
                    <span>input credits/M tokens</span>
                    <input className="input input-sm mono exp-price" value={variant.inputPrice} aria-label={label("input credits/M tokens")} data-testid="exp-variant-input-price"
                        title="Price per million input tokens, for the cost column" onChange={(event) => change({inputPrice: event.target.value})} />
                </label>
                <label className="exp-price-field">
                    <span>output credits/M tokens</span>
                    <input className="input input-sm mono exp-price" value={variant.outputPrice} aria-label={label("output credits/M tokens")} data-testid="exp-variant-output-price"
                        title="Price per million output tokens, for the cost column" onChange={(event) => change({outputPrice: event.target.value})} />
                </label>
            </span>
            <button type="button" className="icon-btn" aria-label={label("remove")} title="Remove this variant" data-testid="exp-remove-variant" onClick={onRemove}>
                <Icon name="close" />
            </button>
            <datalist id={`exp-model-ids-${variant.id}`}>
                {(local ? modelChoices : [modelIds.chat]).map((id) => <option key={id} value={id} />)}
            </datalist>
        </div>
    );
}
