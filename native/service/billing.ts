import type {TransactionFunction} from "@photostructure/sqlite";
import type {ModelPrice} from "../../protocol/admin/contract.ts";
import {formatMoney} from "../../protocol/admin/money.ts";
import {ApiError} from "../../protocol/errors.ts";
import {modelIds} from "../../protocol/limits.ts";
import type {MeteredTokens} from "../../protocol/usage.ts";
import type {ServiceStore} from "./store.ts";

const million = 1_000_000n;

/** Spec §1 rule 4: decision output is free, whatever price is stored; every other model's output is charged. */
export function chargesOutput(model: string): boolean {
    return model !== modelIds.decision;
}

/**
 * What a request costs in micro-units (spec §2.3 rule 2): uncached input, cached input and output at their own
 * per-million rates; decision output is free (§1 rule 4). Exact integer arithmetic (BigInt: tokens times rate can
 * pass 2^53), rounded up to the next micro-unit once per request.
 */
export function costMicros(model: string, tokens: MeteredTokens, price: ModelPrice): number {
    const outputRate = chargesOutput(model) ? price.outputMicrosPerMillion : 0;
    const scaled = BigInt(tokens.uncachedInputTokens) * BigInt(price.inputMicrosPerMillion)
        + BigInt(tokens.cachedInputTokens) * BigInt(price.cachedInputMicrosPerMillion)
        + BigInt(tokens.outputTokens) * BigInt(outputRate);
    return Number((scaled + million - 1n) / million);
}

/**
 * The most `tokens` tokens of `model` can cost: what a request holds while it runs. PostgreSQL's admission statement
 * computes the same in SQL (pgAdmission.ts), checked against this on every request.
 */
export function holdMicros(model: string, tokens: number, price: ModelPrice): number {
    const outputRate = chargesOutput(model) ? price.outputMicrosPerMillion : 0;
    const rate = Math.max(price.inputMicrosPerMillion, price.cachedInputMicrosPerMillion, outputRate);
    return costMicros(model, {uncachedInputTokens: tokens, cachedInputTokens: 0, outputTokens: 0}, {...price, inputMicrosPerMillion: rate});
}

/** A request's hold; `id` names its row where holds are shared by several servers (postgres/). */
export type Hold = {workspaceId: string, micros: number, released: boolean, id?: string};

/**
 * Spec §5 rule 3 and §7: the 402 `insufficient_quota` of a workspace that is not activated, or whose balance less
 * the holds of its requests in flight is not above zero; undefined when it may serve one more request.
 */
export function quotaRefusal(workspace: {id: string, activatedAt: number | null, balanceMicros: number}, held: number): ApiError | undefined {
    if (workspace.activatedAt == null)
        return new ApiError(402, "insufficient_quota", `workspace ${workspace.id} is not activated; activate it (svc-studio admin workspace activate ` +
            `${workspace.id}) and add credit before its keys serve requests`);
    if (workspace.balanceMicros - held <= 0)
        return new ApiError(402, "insufficient_quota", `workspace ${workspace.id} has no prepaid credit left (balance ${formatMoney(workspace.balanceMicros)}` +
            `${held > 0 ? `, ${formatMoney(held)} held by requests in flight` : ""}); add credit (svc-studio admin credits add ${workspace.id} <amount>)`);
    return undefined;
}

export type Charge = {
    requestId: string,
    traceId?: string,
    workspaceId: string,
    keyId: string,
    model: string,
    endpoint: string,
    tokens: MeteredTokens,
    costMicros: number
};

/**
 * The workspaces' balances under concurrency: reserve, then settle.
 *
 * A request is admitted only while its workspace's balance less the holds of its requests in flight is above
 * zero; it then holds the most its model can cost for one context window of tokens (`holdMicros`), and when it
 * completes its real cost is charged and its hold let go. Admission and settlement run synchronously on the one
 * event loop, and each charge is one SQLite transaction, so nothing interleaves between reading and writing a
 * balance: the balance is always exactly credits less charges. Overdraft bound: while every request costs at most
 * its hold, a balance never falls below minus one hold (only the last request admitted can pass zero); a request
 * that costs more than its hold (n choices, JSON-mode regenerations, several prompts) can add that excess.
 */
export class Ledger {
    private readonly held = new Map<string, number>();
    private readonly write: TransactionFunction<(charge: Charge, now: number) => boolean>;

    public constructor(store: ServiceStore) {
        const insertUsage = store.db.prepare(`INSERT INTO usage (request_id, trace_id, workspace_id, key_id, model, endpoint, day, created_at,
            uncached_input_tokens, cached_input_tokens, output_tokens, cost_micros) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (request_id) DO NOTHING`);
        const debit = store.db.prepare("UPDATE workspaces SET balance_micros = balance_micros - ? WHERE id = ?");
        // Built once: the charge is on every request's path.
        this.write = store.db.transaction((charge: Charge, now: number) => {
            const {tokens} = charge;
            const inserted = insertUsage.run(charge.requestId, charge.traceId ?? null, charge.workspaceId, charge.keyId, charge.model, charge.endpoint,
                new Date(now).toISOString().slice(0, 10), now, tokens.uncachedInputTokens, tokens.cachedInputTokens, tokens.outputTokens, charge.costMicros).changes === 1;
            if (inserted) debit.run(charge.costMicros, charge.workspaceId);
            return inserted;
        });
    }

    /**
     * Spec §5 rule 3 and §7 (402 `insufficient_quota`): a workspace serves requests once activated and while it has
     * credit not already held by its requests in flight. Returns the request's hold.
     */
    public reserve(workspace: {id: string, activatedAt: number | null, balanceMicros: number}, micros: number): Hold {
        const held = this.held.get(workspace.id) ?? 0;
        const refusal = quotaRefusal(workspace, held);
        if (refusal != null) throw refusal;
        this.held.set(workspace.id, held + micros);
        return {workspaceId: workspace.id, micros, released: false};
    }

    /** Lets the hold go without charging (a failed, refused or abandoned request: spec §7 "Charging"). */
    public release(hold: Hold) {
        if (hold.released) return;
        hold.released = true;
        const left = (this.held.get(hold.workspaceId) ?? 0) - hold.micros;
        if (left > 0) this.held.set(hold.workspaceId, left);
        else this.held.delete(hold.workspaceId);
    }

    /**
     * Charges a completed request: its ledger row and the balance change in one transaction, committed before the
     * response's last bytes go out. `request_id` is unique, so a charge is written once or not at all; a crash
     * leaves either both or neither. Returns false when the request was already charged.
     */
    public settle(hold: Hold, charge: Charge): boolean {
        try {
            return this.write.immediate(charge, Date.now());
        } finally {
            this.release(hold);
        }
    }

    /** Micro-units held by a workspace's requests in flight. */
    public heldMicros(workspaceId: string): number {
        return this.held.get(workspaceId) ?? 0;
    }
}
