import type {MulticlassReport} from "../../../../client/scoring/index.ts";
import {ConfusionMatrix} from "./ConfusionMatrix.tsx";
import {MetricTiles} from "./MetricTiles.tsx";
import {PerClassTable} from "./PerClassTable.tsx";
import {ReliabilityDiagram} from "./ReliabilityDiagram.tsx";

/** A choice or score question against its labels: per-class metrics, the confusion matrix, reliability. */
export function MulticlassReportView({report}: {report: MulticlassReport}) {
    return (
        <div className="report">
            <MetricTiles metrics={[
                {id: "accuracy", label: "Accuracy", value: report.accuracy},
                {id: "macro-f1", label: "Macro F1", value: report.macroF1},
                {id: "brier", label: "Brier", value: report.brier, hint: "Multiclass Brier score (0 to 2); lower is better"},
                {id: "logloss", label: "Log loss", value: report.logLoss, hint: "Lower is better"},
                {id: "ece", label: "ECE", value: report.ece, hint: "Top-label expected calibration error; lower is better"},
                ...(report.meanAbsoluteError === undefined ? [] : [{id: "mae", label: "MAE (levels)", value: report.meanAbsoluteError, hint: "Mean |expected level − labelled level|"}])
            ]} />
            <div className="eval-charts">
                <div className="eval-chart per-class-box"><PerClassTable classes={report.perClass} /></div>
                <ConfusionMatrix labels={report.labels} matrix={report.confusion} />
                <ReliabilityDiagram bins={report.reliability} ece={report.ece} axisLabel="confidence vs fraction correct" />
            </div>
        </div>
    );
}
