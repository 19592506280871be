// The input a question set is asked about: text, a JSON state or a table row, and images.
import {useState} from "react";
import {limits} from "../../../../protocol/limits.ts";
import {JsonEditor} from "../../ui/JsonEditor.tsx";
import {useNavStore} from "../../ui/appState.ts";
import {AutoTextarea} from "../../ui/controls.tsx";
import {ImageAttachButton} from "../../ui/images.tsx";
import {ImageSupportNote, imageSupport} from "../../ui/imageSupport.tsx";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {imageName} from "../questionSet/requests.ts";
import {useScoringStore} from "../scoring/scoringStore.ts";
import {useResolvedInput, useRowSource} from "./decisionInput.ts";
import {useDatasetsStore} from "../datasets/datasetStore.ts";
import {modelColumns} from "../../../../client/scoring/index.ts";
import {imagesKept, keptImageChars, useDecisionInputStore, type InputMode} from "./studioState.ts";

const modes: Array<{id: InputMode, label: string}> = [
    {id: "text", label: "Text"},
    {id: "json", label: "JSON state"},
    {id: "row", label: "Table row"}
];

/** What the questions are asked about: text, a JSON state or a table row, plus up to 8 images. */
export function InputPanel() {
    const mode = useDecisionInputStore((state) => state.mode);
    const text = useDecisionInputStore((state) => state.text);
    const jsonText = useDecisionInputStore((state) => state.jsonText);
    const set = useDecisionInputStore((state) => state.set);
    const format = useQuestionSetStore((state) => state.draft.format);
    const resolved = useResolvedInput();
    return (
        <section className="card input-panel" data-testid="input-panel">
            <div className="card-title-row">
                <h3>Input</h3>
                <div className="segmented" role="radiogroup" aria-label="Input kind">
                    {modes.map((item) => (
                        <button key={item.id} type="button" role="radio" aria-checked={mode === item.id} className={mode === item.id ? "active" : ""}
                            data-testid={`input-mode-${item.id}`} onClick={() => set({mode: item.id})}>{item.label}</button>
                    ))}
                </div>
                <span className="muted small push-right">
                    {format === "decisions" ? "sent as `input` (a JSON state as stable JSON text)" : "sent as `state`"}
                </span>
            </div>
            {mode === "text" && <AutoTextarea className="tall" value={text} onChange={(event) => set({text: event.target.value})} placeholder="The text to evaluate" aria-label="Input text" data-testid="input-text" />}
            {mode === "json" && (
                <JsonEditor path="inmemory://svc/decision-state.json" value={jsonText} onChange={(value) => set({jsonText: value})} height={160}
                    error={resolved.error} label="JSON state" testId="input-json" />
            )}
            {mode === "row" && <TableRowInput />}
            <DecisionImages />
        </section>
    );
}

/** Up to 8 images sent with the input, previewed under the names the questions refer to: image_1, image_2... */
export function DecisionImages() {
    const images = useDecisionInputStore((state) => state.images);
    const set = useDecisionInputStore((state) => state.set);
    const [note, setNote] = useState<string | null>(null);
    const full = images.length >= limits.imagesPerRequest;
    const {data: gateway} = useGatewayState();
    return (
        <div className="decision-images">
            <div className="row-gap">
                {full
                    ? <span className="muted small">{limits.imagesPerRequest} images: the most a request may carry.</span>
                    : <ImageAttachButton testId="input-images" label={`Add images (${images.length} / ${limits.imagesPerRequest})`} onImages={(picked) => {
                        const room = limits.imagesPerRequest - useDecisionInputStore.getState().images.length;
                        set({images: [...useDecisionInputStore.getState().images, ...picked.slice(0, room)]});
                        setNote(picked.length > room ? `Only ${room} more image${room === 1 ? "" : "s"} fit: a request carries at most ${limits.imagesPerRequest}.` : null);
                    }} />}
                {note && <span className="field-warning inline" role="status">{note}</span>}
            </div>
            {images.length > 0 && (
                <div className="image-previews">
                    {images.map((image, index) => (
                        <figure className="image-preview" key={image.id} data-testid="input-image-preview">
                            <img src={image.dataUrl} alt={`${imageName(index)}: ${image.name}`} />
                            <figcaption title={image.name}><span className="mono">{imageName(index)}</span> · {image.name}</figcaption>
                            <button type="button" className="image-remove" aria-label={`Remove ${imageName(index)}`}
                                onClick={() => set({images: images.filter((item) => item.id !== image.id)})}>×</button>
                        </figure>
                    ))}
                </div>
            )}
            {!imagesKept(images) && (
                <span className="field-warning inline" data-testid="input-images-not-kept">
                    These images are over {(keptImageChars / 1024 / 1024).toFixed(0)} MiB in all: they are not kept when the app reloads (the rest of the input is).
                </span>
            )}
            <ImageSupportNote support={imageSupport(gateway?.engine, activeConnection(gateway))} imageCount={images.length} />
        </div>
    );
}

/**
 * A row of a saved dataset (with a `{{column}}` template, or as JSON over the columns the model sees) or of the table
 * loaded on the scoring screen (mapped as a scoring job would map it).
 */
export function TableRowInput() {
    const scoringTable = useScoringStore((state) => state.table);
    const datasets = useDatasetsStore((state) => state.datasets);
    const datasetId = useDecisionInputStore((state) => state.datasetId);
    const rowTemplate = useDecisionInputStore((state) => state.rowTemplate);
    const rowIndex = useDecisionInputStore((state) => state.rowIndex);
    const set = useDecisionInputStore((state) => state.set);
    const table = useRowSource();
    const resolved = useResolvedInput();
    const go = useNavStore((state) => state.go);
    const source = datasetId ?? "";
    const picker = (
        <label className="row-gap small">Rows from
            <select className="input input-sm" value={source} data-testid="input-row-source"
                onChange={(event) => set({datasetId: event.target.value === "" ? null : event.target.value, rowIndex: 0})}>
                <option value="">{scoringTable === null ? "The scoring table (none loaded)" : `The scoring table (${scoringTable.fileName})`}</option>
                {datasets.map((dataset) => <option key={dataset.id} value={dataset.id}>Dataset: {dataset.name}</option>)}
            </select>
        </label>
    );
    if (table === null) return (
        <div className="table-row-input">
            {picker}
            <div className="empty-state small">
                {datasetId === null ? "No table loaded. " : "That dataset is gone. "}Pick a dataset above (made on the <button type="button" className="link-btn" onClick={() => go("datasets")}>Datasets screen</button>),
                or <button type="button" className="link-btn" onClick={() => go("scoring")}>import a CSV or XLSX file</button> on the Scoring screen.
            </div>
        </div>
    );
    const sees = modelColumns(table);
    return (
        <div className="table-row-input">
            <div className="row-gap table-row-head">
                {picker}
                <label className="row-gap small">Row
                    <input className="input input-sm" type="number" min={1} max={table.rows.length} value={rowIndex + 1} data-testid="input-row-index"
                        onChange={(event) => set({rowIndex: Math.floor(Number(event.target.value)) - 1})} />
                </label>
                <span className="muted small">of {table.rows.length.toLocaleString("en-US")} in {table.name}
                    {datasetId === null && <>{" · "}{table.mapping.kind === "row" ? "whole row as JSON state" : "mapped by the scoring template"}</>}</span>
            </div>
            {datasetId !== null && (
                <>
                    <label className="field small">Template (empty: the row as JSON)
                        <AutoTextarea value={rowTemplate} onChange={(event) => set({rowTemplate: event.target.value})} placeholder="Story: {{story}}"
                            aria-label="Row template" data-testid="input-row-template" />
                    </label>
                    <span className="muted small" data-testid="input-row-columns">
                        The model sees {sees.length === 0 ? "no column" : sees.join(", ")}
                        {(table.labelColumns ?? []).length > 0 && <>; label columns ({(table.labelColumns ?? []).join(", ")}) are sent only when ticked on the Datasets screen</>}.
                    </span>
                </>
            )}
            {resolved.input === null
                ? <div className="field-error" role="alert">{resolved.error}</div>
                : <pre className="small-code" data-testid="input-row-preview">{resolved.input.kind === "text" ? resolved.input.text : JSON.stringify(resolved.input.value, null, 2)}</pre>}
        </div>
    );
}
