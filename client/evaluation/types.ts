// Reports of client/evaluation. Metrics that are undefined on the data (a precision with nothing predicted
// positive, an AUC without both classes) are null rather than NaN, so a report survives JSON.

/** One reliability-diagram bin: equal-width bins of predicted probability (binary) or confidence (multiclass). */
export type ReliabilityBin = {
    lower: number,
    upper: number,
    count: number,
    /** Mean predicted probability (binary: P(true); multiclass: the top probability) in the bin; null when empty. */
    meanPredicted: number | null,
    /** Fraction true (binary) or fraction correct (multiclass) in the bin; null when empty. */
    observed: number | null
};

export type Confusion = {tp: number, fp: number, tn: number, fn: number};

/** Predicting true when P(true) >= threshold. */
export type ThresholdRow = Confusion & {
    threshold: number,
    precision: number | null,
    recall: number | null,
    f1: number | null,
    accuracy: number,
    /** Recall of the false class, for a picker that shows both kinds of mistake. */
    falsePositiveRate: number | null
};

/** `threshold` null: the origin, above every probability (nothing predicted true). */
export type RocPoint = {threshold: number | null, falsePositiveRate: number, truePositiveRate: number};

export type CalibrationMetrics = {
    /** Mean negative log-likelihood, probabilities clipped to [probabilityFloor, 1 - probabilityFloor]. */
    logLoss: number,
    /** Binary: mean (p - y)^2; multiclass: mean sum over classes of (p_k - y_k)^2 (0 to 2). */
    brier: number,
    /** Expected calibration error over `reliability`: sum of |observed - meanPredicted| weighted by bin share. */
    ece: number,
    reliability: ReliabilityBin[]
};

export type BinaryReport = CalibrationMetrics & {
    kind: "binary",
    n: number,
    positives: number,
    threshold: number,
    confusion: Confusion,
    accuracy: number,
    precision: number | null,
    recall: number | null,
    f1: number | null,
    /** From (0, 0) to (1, 1), one point per distinct probability; empty when a class is missing. */
    roc: RocPoint[],
    auc: number | null,
    /** Precision / recall at each distinct probability, highest threshold first: a threshold picker's data. */
    thresholds: ThresholdRow[]
};

export type ClassMetrics = {label: string, support: number, predicted: number, precision: number | null, recall: number | null, f1: number | null};

export type MulticlassReport = CalibrationMetrics & {
    kind: "multiclass",
    n: number,
    labels: string[],
    accuracy: number,
    perClass: ClassMetrics[],
    /** Unweighted mean of the per-class F1 over the classes that were labelled or predicted at least once. */
    macroF1: number | null,
    /** confusion[actual][predicted], indexes as in `labels`. */
    confusion: number[][],
    /** Score questions only: mean |expected level - labelled level|. */
    meanAbsoluteError?: number
};

export type Report = BinaryReport | MulticlassReport;
