// An explanation is the stated answer, "because", and the model's continuation, cut to one sentence. The answer
// is kept verbatim (an option named "iPhone" or "Dr. Who" must not be recased or cut), so the sentence always
// starts with the chosen option; only the continuation is searched for the sentence end.

/** What the model's reply is prefilled with: it then has to give a reason for this answer. */
export function explanationOpening(answer: string): string {
    return `${answer}, because`;
}

/** The answer, the first sentence of the model's `continuation` of explanationOpening(answer), closed with a period. */
export function firstSentence(answer: string, continuation: string): string {
    // Whitespace collapsed to single spaces; other control characters (a small model can emit raw bytes) dropped.
    const rest = continuation.replace(/\s+/g, " ").replace(/\p{Cc}/gu, "");
    const end = rest.search(/[.!?](\s|$)/);
    const body = (end >= 0 ? rest.slice(0, end + 1) : rest).trimEnd();
    // Nothing said after "because": the answer alone is the sentence.
    if (body.replace(/[\s.!?,;:]/g, "") === "") return /[.!?]$/.test(answer) ? answer : `${answer}.`;
    const sentence = explanationOpening(answer) + body;
    return /[.!?]$/.test(sentence) ? sentence : sentence.replace(/[,;:\s]+$/, "") + ".";
}
