// Every numeric limit of spec §8 in one place, so server, client and UI enforce the same edges.
export const limits = {
    /** Prompt tokens plus requested output budget, `svc-1` chat and Responses. */
    contextWindow: 131_072,
    /** Default output budget of chat when neither budget field is sent. */
    defaultChatMaxTokens: 2048,
    /** Share of the output budget the reasoning-by-default variant may spend thinking. */
    thinkingShare: 0.75,
    /** Request body size of `svc-1` endpoints. */
    chatBodyBytes: 67_108_864,
    /** Request body size of `svc-1-decision` endpoints. */
    decisionBodyBytes: 8 * 1024 * 1024,
    questionsPerRequest: 512,
    questionsPerRequestWithExplain: 64,
    optionsPerChoice: 512,
    levelsPerScore: 64,
    imagesPerRequest: 8,
    pixelsPerImage: 25_000_000,
    jsonValuesPerRequest: 100_000
} as const;

export const modelIds = {
    chat: "svc-1",
    decision: "svc-1-decision"
} as const;
