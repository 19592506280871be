// A grader of the open experiment calibrated from its labelled replies (client/experiments/graderCalibration.ts), and
// the experiment run again with the calibration on that grader: a new kept experiment whose replies and grades come
// from the response cache when it is on, now judged through the calibrated score.
import {fitGraderCalibration, withGraderCalibration} from "../../../../client/experiments/graderCalibration.ts";
import type {QuestionCalibration} from "../../../../client/scoring/calibration.ts";
import {newId} from "../../ui/browser.ts";
import {useDraftStore} from "./draftStore.ts";
import {startExperiment} from "./experimentRun.ts";
import {useExperimentStore, type OpenExperiment} from "./experimentStore.ts";
import {draftFromSpec} from "./specDraft.ts";

export type GraderFit = {calibration: QuestionCalibration, warnings: string[]} | {error: string};

/** Fits the calibration of the open experiment's grader at `checkIndex` on the replies people labelled. */
export function fitOpenGrader(open: OpenExperiment, checkIndex: number): GraderFit {
    try {
        return fitGraderCalibration(open.spec, open.dataset, [...open.cells.values()], checkIndex);
    } catch (error) {
        return {error: (error as Error).message};
    }
}

/** Runs the open experiment again as a new one ("· calibrated") whose grader at `checkIndex` carries `calibration`; Setup shows it. */
export async function runWithCalibration(checkIndex: number, calibration: QuestionCalibration) {
    const open = useExperimentStore.getState().open;
    if (open === null) return;
    const calibrated = withGraderCalibration(open.spec, checkIndex, calibration);
    const spec = {...calibrated, id: `exp-${newId()}`, name: `${open.spec.name.replace(/ · calibrated$/, "")} · calibrated`, dataset: open.dataset, createdAt: Date.now()};
    useDraftStore.getState().replace(draftFromSpec(spec, false));
    await startExperiment(spec);
}
