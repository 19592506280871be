/** Log loss, Brier score and ECE of one question's answers on the rows a calibration was judged on. */
export type CalibrationScores = {logLoss: number, brier: number, ece: number};

/**
 * A fitted calibration of one question, plain JSON so it can be saved in the question set (`calibration`,
 * keyed by question name) and applied to the answers of later runs.
 * - `platt` (yes/no): P' = sigmoid(logit(P) / temperature + bias)
 * - `temperature` (choice, score): P'_k proportional to P_k^(1 / temperature); the ranking is unchanged
 * A temperature above 1 softens over-confident answers, below 1 sharpens timid ones. Probabilities are
 * clipped to [0.005, 0.995] first (answers are rounded to hundredths, so 0 means "below 0.005").
 */
export type QuestionCalibration = {
    version: 1,
    question: string,
    kind: "yesno" | "choice" | "score",
    method: "platt" | "temperature",
    temperature: number,
    /** Platt only; 0 for temperature scaling. */
    bias: number,
    /** Labelled rows it was fitted on. */
    fittedOn: number,
    /** Scores on the evaluation rows (the fitting rows unless separate ones were given) before and after. */
    before: CalibrationScores,
    after: CalibrationScores,
    /** Rows `before` / `after` were measured on, and whether they were the fitting rows themselves. */
    evaluatedOn: number,
    heldOut: boolean,
    fittedAt: string
};

export type CalibrationSet = Record<string, QuestionCalibration>;
