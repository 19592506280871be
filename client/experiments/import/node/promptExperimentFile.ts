import {ExperimentInputError} from "../../dataset.ts";
import {readDatasetFile} from "../../node/experimentFiles.ts";
import type {ExperimentSpec} from "../../types.ts";
import {ImportError, type ImportReport} from "../importProblems.ts";
import {importOpenAiPrompt, promptVersionsExperiment} from "../openai/importOpenAiPrompt.ts";
import {nodeSourceFiles} from "./nodeSourceFiles.ts";

// `svc-studio import openai-prompt`: a prompt object file's versions compared at once on a dataset read from disk (CSV
// or XLSX, as an experiment file's dataset), written inline so the app opens the experiment as it is.

export async function importPromptExperiment(promptFile: string, datasetFile: string | undefined, options: {id: string, createdAt: number}): Promise<{spec: ExperimentSpec, report: ImportReport}> {
    const imported = await importOpenAiPrompt(promptFile, nodeSourceFiles, {createdAt: options.createdAt});
    try {
        if (datasetFile === undefined)
            throw new ImportError({file: promptFile, field: "--dataset"}, `name the dataset the versions are compared on: --dataset <rows.csv> (CSV or XLSX) with a column per variable: ${imported.variables.join(", ")}`);
        let dataset;
        try {
            dataset = await readDatasetFile({file: datasetFile, labelColumns: []}, process.cwd());
        } catch (error) {
            if (error instanceof ExperimentInputError) throw new ImportError({file: datasetFile, field: "--dataset"}, error.problems.map((problem) => problem.message).join("; "));
            throw error;
        }
        return {spec: promptVersionsExperiment(imported, {file: promptFile, id: options.id, dataset, createdAt: options.createdAt}), report: imported.report};
    } catch (error) {
        if (error instanceof ImportError) error.report = imported.report;
        throw error;
    }
}
