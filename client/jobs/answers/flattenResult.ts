import {calibrateAnswer} from "../../evaluation/calibration/calibrateAnswer.ts";
import {readAnswers} from "../../questions/readAnswers.ts";
import type {NormalizedAnswer, QuestionInfo, QuestionSet} from "../../questions/types.ts";
import type {CellValue} from "../../spreadsheets/types.ts";
import type {RowResult} from "../types.ts";
import {errorColumnName, questionColumns} from "./resultColumns.ts";

export type ResultLayout = {
    /** Answer columns of every question, then the error column. */
    columns: string[],
    /** The cells of those columns for one row's result (all empty when the row has none yet). */
    cells(result: RowResult | undefined): CellValue[],
    /** The row's answers (calibrated where the set has a calibration); null for an error or no result. */
    answers(result: RowResult | undefined): NormalizedAnswer[] | null
};

/**
 * How results become flat columns for a table or an export (see questionColumns for the names). An error
 * row leaves the answer cells empty and writes `<status> <code>: <message>` into the error column.
 */
export function resultLayout(questionSet: QuestionSet, infos: readonly QuestionInfo[], sourceColumns: readonly string[]): ResultLayout {
    const explain = questionSet.x_svc?.explain === true;
    const calibration = questionSet.calibration ?? {};
    const perQuestion = infos.map((info) => questionColumns(info, {explain, calibrated: calibration[info.name] !== undefined}));
    const errorColumn = errorColumnName(sourceColumns);
    const width = perQuestion.reduce((sum, columns) => sum + columns.length, 0) + 1;

    const answers = (result: RowResult | undefined): NormalizedAnswer[] | null => {
        if (result === undefined || !result.ok || result.response === undefined) return null;
        return readAnswers(questionSet.format, infos, result.response).map((answer, index) => {
            const fitted = calibration[infos[index].name];
            return fitted === undefined ? answer : calibrateAnswer(infos[index], fitted, answer);
        });
    };

    return {
        columns: [...perQuestion.flat(), errorColumn],
        answers,
        cells(result) {
            if (result === undefined) return new Array<CellValue>(width).fill(null);
            if (!result.ok) {
                const error = result.error;
                const text = error === undefined ? "failed" : `${error.status ?? "-"} ${error.code}: ${error.message}`;
                return [...new Array<CellValue>(width - 1).fill(null), text];
            }
            const cells: CellValue[] = [];
            answers(result)!.forEach((answer, index) => {
                const info = infos[index];
                if (info.kind === "yesno") cells.push(answer.probabilities[0]);
                else {
                    cells.push(info.kind === "choice" ? toCell(answer.choice) : answer.score ?? null, answer.confidence ?? null);
                    cells.push(...answer.probabilities);
                }
                if (explain) cells.push(answer.explanation ?? null);
                if (calibration[info.name] !== undefined) cells.push(true);
            });
            cells.push(null);
            return cells;
        }
    };
}

function toCell(value: string | number | boolean | undefined): CellValue {
    return value === undefined ? null : value;
}
