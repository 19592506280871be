import {ApiError} from "../../protocol/errors/ApiError.ts";
import type {CompletionUsage, SamplingParams} from "../../protocol/chat/types.ts";
import type {LocalEngine} from "../engine/LocalEngine.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import type {ChatModelVariant} from "./chatModelVariants.ts";
import type {ChatDelta, ChatTurnResult} from "./generateChatTurn.ts";
import {planChatTurn, type ChatTurnPlan, type ChatTurnRequest} from "./planChatTurn.ts";
import {canThink} from "./reasoning/canThink.ts";
import {runChatChoice} from "./runChatChoice.ts";
import {UnsatisfiedFormatError} from "./UnsatisfiedFormatError.ts";
import {chatUsage} from "./utils/chatUsage.ts";

/**
 * One request's assistant turn on the local engine, shared by chat completions and Responses: the plan, the
 * leased sequence, the choices generated on it and the usage they add up to.
 */
export class ChatTurnSession {
    public readonly plan: ChatTurnPlan;
    private readonly engine: LocalEngine;
    private readonly lease: SequenceLease;
    private readonly signal: AbortSignal;
    private completionTokens = 0;
    private reasoningTokens = 0;

    private constructor(engine: LocalEngine, plan: ChatTurnPlan, lease: SequenceLease, signal: AbortSignal) {
        this.engine = engine;
        this.plan = plan;
        this.lease = lease;
        this.signal = signal;
    }

    /** Plans the turn (every 400 is raised here, before any waiting) and leases a sequence for it. */
    public static async open(engine: LocalEngine, variant: ChatModelVariant, request: ChatTurnRequest, signal: AbortSignal): Promise<ChatTurnSession> {
        const plan = await planChatTurn(engine, variant, request);
        const lease = await engine.scheduler.acquire(plan.prompt, signal);
        return new ChatTurnSession(engine, plan, lease, signal);
    }

    /**
     * Generates choice `choiceIndex`. A JSON-mode turn that cannot be satisfied becomes the 400 of spec 2.7.5,
     * carrying the usage of everything generated for the request so far.
     */
    public async run(choiceIndex: number, sampling: SamplingParams, onDelta?: (delta: ChatDelta) => void): Promise<ChatTurnResult> {
        try {
            const result = await runChatChoice(this.plan, {lease: this.lease, sampling, choiceIndex, signal: this.signal, onDelta});
            this.count(result);
            return result;
        } catch (error) {
            if (!(error instanceof UnsatisfiedFormatError)) throw error;
            this.count(error);
            throw new ApiError(400, "invalid_request", error.message, {usage: this.usage()});
        }
    }

    public usage(): CompletionUsage {
        return chatUsage({
            promptTokens: this.plan.promptTokens,
            reusablePrefix: this.lease.reusablePrefix,
            completionTokens: this.completionTokens,
            reasoningTokens: this.reasoningTokens,
            canThink: canThink(this.engine.chatWrapper)
        });
    }

    public release() {
        this.lease.release();
    }

    private count(spent: {completionTokens: number, reasoningTokens: number}) {
        this.completionTokens += spent.completionTokens;
        this.reasoningTokens += spent.reasoningTokens;
    }
}
