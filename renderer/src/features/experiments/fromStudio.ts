// One house for decisions: the Decision studio's Compare opened as an experiment over a one-row dataset (its current
// input), and an evaluated scoring job as an experiment with one variant. Both save what they run (a dataset, versions
// of the question sets) so the experiment can be kept, run again and exported like any other.
import {labelColumns, type InputMapping, type QuestionSet, type SheetRow} from "../../../../client/scoring/index.ts";
import {activeConnection} from "../../gateway/gatewayState.ts";
import {useNavStore} from "../../ui/appState.ts";
import {createDataset} from "../datasets/datasetSaves.ts";
import {useScoringStore} from "../scoring/scoringStore.ts";
import {saveVersion} from "../versions/versionStore.ts";
import {buildSpec} from "./buildSpec.ts";
import {emptyDraft, newVariant, useDraftStore, type VariantDraft} from "./draftStore.ts";
import {experimentBusy, startExperiment} from "./experimentRun.ts";
import {useExperimentStore} from "./experimentStore.ts";

/** One side of what is opened: a question set asked on a connection ("local" or a remote profile's id). */
export type StudioSide = {label: string, questionSet: QuestionSet, connection: string};

export type StudioExperiment = {
    name: string,
    /** The dataset: its columns and rows, with the label columns when there are any. */
    columns: string[],
    rows: SheetRow[],
    labelColumns: string[],
    input: InputMapping,
    sides: StudioSide[]
};

/**
 * Saves the dataset and one version per side and sets the Experiments screen up with them; `run` starts it at once
 * (a one-row comparison), else Setup shows its estimate first (a whole scored table).
 */
export async function openAsExperiment(experiment: StudioExperiment, run = true): Promise<{ok: true} | {ok: false, text: string}> {
    if (experimentBusy()) return {ok: false, text: "An experiment is running: wait for it or cancel it first."};
    const dataset = await createDataset({name: experiment.name, columns: experiment.columns, rows: experiment.rows, labelColumns: experiment.labelColumns,
        inputColumns: experiment.columns.filter((column) => !experiment.labelColumns.includes(column))});
    if (!dataset.ok) return dataset;
    const variants: VariantDraft[] = [];
    for (const side of experiment.sides) {
        const saved = await saveVersion({itemId: null, itemName: `${side.questionSet.name?.trim() || "Question set"} · ${side.label}`, note: `from ${experiment.name}`,
            prompt: {kind: "decision", questionSet: side.questionSet, input: experiment.input}});
        if (!saved.ok) return saved;
        variants.push(newVariant(variants, {itemId: saved.version.itemId, version: saved.version.version, connection: side.connection}));
    }
    const draft = {...emptyDraft(), name: experiment.name, datasetId: dataset.dataset.id, variants};
    useDraftStore.getState().replace(draft);
    useNavStore.getState().go("experiments");
    const built = buildSpec(draft, dataset.dataset);
    if (built.spec === null || !run) {
        useExperimentStore.getState().set({tab: "setup"});
        return {ok: true};
    }
    void startExperiment(built.spec);
    return {ok: true};
}

/** The studio's current input as a one-row dataset: its text (a JSON state as its JSON text), asked through `{{input}}`. */
export function oneRowOf(input: {kind: "text", text: string} | {kind: "json", value: unknown}): Pick<StudioExperiment, "columns" | "rows" | "labelColumns" | "input"> {
    const text = input.kind === "text" ? input.text : JSON.stringify(input.value);
    return {columns: ["input"], rows: [[text]], labelColumns: [], input: {kind: "template", template: "{{input}}"}};
}

/**
 * The scoring job on the Evaluation screen as an experiment with one variant: its table as the dataset (label columns
 * guessed as the Evaluation screen guesses them), its question set and input mapping on the active connection. Opened
 * in Setup, where its estimate shows before its rows are sent again.
 */
export async function openScoringJobAsExperiment(): Promise<{ok: true} | {ok: false, text: string}> {
    const job = useScoringStore.getState().job;
    if (job === null) return {ok: false, text: "Score a table first."};
    const columns = [...job.table.columns];
    const labels = labelColumns(job.infos.map((info) => info.name), columns);
    const connection = activeConnection();
    return openAsExperiment({
        name: `Evaluation of ${job.table.fileName}`,
        columns,
        rows: job.table.rows,
        labelColumns: columns.filter((column) => labels.has(column)),
        input: job.spec.input,
        sides: [{label: "scoring", questionSet: job.spec.questionSet, connection: connection.kind === "local" ? "local" : connection.id}]
    }, false);
}
