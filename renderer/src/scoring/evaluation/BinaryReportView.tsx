import type {BinaryReport} from "../../../../client/scoring/index.ts";
import {MetricTiles} from "./MetricTiles.tsx";
import {ReliabilityDiagram} from "./ReliabilityDiagram.tsx";
import {RocChart} from "./RocChart.tsx";
import {ThresholdPicker} from "./ThresholdPicker.tsx";

type Props = {report: BinaryReport, onThreshold: (threshold: number) => void, name: string};

/** A yes/no question against its labels: metrics at the threshold, threshold-free scores, ROC, reliability. */
export function BinaryReportView({report, onThreshold, name}: Props) {
    const {tp, fp, tn, fn} = report.confusion;
    const falsePositiveRate = fp + tn === 0 ? null : fp / (fp + tn);
    return (
        <div className="report">
            <MetricTiles metrics={[
                {id: "accuracy", label: "Accuracy", value: report.accuracy},
                {id: "precision", label: "Precision", value: report.precision},
                {id: "recall", label: "Recall", value: report.recall},
                {id: "f1", label: "F1", value: report.f1},
                {id: "auc", label: "AUC", value: report.auc, hint: "Area under the ROC curve"},
                {id: "brier", label: "Brier", value: report.brier, hint: "Mean squared error of P(true); lower is better"},
                {id: "logloss", label: "Log loss", value: report.logLoss, hint: "Lower is better"},
                {id: "ece", label: "ECE", value: report.ece, hint: "Expected calibration error over 10 bins; lower is better"}
            ]} />
            <div className="muted small" data-testid="binary-confusion">At {report.threshold.toFixed(2)}: {tp} true positives, {fp} false positives, {tn} true negatives, {fn} false negatives
                ({report.positives} of {report.n} labelled true).</div>
            <div className="eval-charts">
                <ThresholdPicker report={report} threshold={report.threshold} onChange={onThreshold} testId={`threshold-${name}`} />
                <RocChart roc={report.roc} auc={report.auc} current={{falsePositiveRate, recall: report.recall}} />
                <ReliabilityDiagram bins={report.reliability} ece={report.ece} axisLabel="P(true) vs fraction true" />
            </div>
        </div>
    );
}
