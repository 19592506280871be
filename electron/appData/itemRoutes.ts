// The app-data routes of the run history, the scoring jobs and the experiments, over their stores in the app's database.
import {appDataLimits, type SavedJobRecord, type SavedRun} from "../../protocol/gateway/contract.ts";
import type {GatewayRouteName} from "../../protocol/gateway/routes.ts";
import type {JobRecord, RowResult} from "../../client/scoring/types.ts";
import {readEnum, readObject} from "../../protocol/validation.ts";
import {GatewayError, type GatewayAnswer, type GatewayCall, type GatewayHandlers} from "../api/answers.ts";
import type {AppDatabase} from "./AppDatabase.ts";
import {acknowledgeKeptAside, itemKinds} from "./itemProblems.ts";
import type {JobStore} from "./JobStore.ts";
import {parseCursor, type RunHistory} from "./RunHistory.ts";
import {paramName} from "./storedNames.ts";

// Each takes its store as a function, read when a call comes: the handlers are built before the app-data store's
// constructor has made its stores.

/** The history's routes: a page of runs (`?limit=&after=`), add, delete one, clear. */
export function historyHandlers(historyOf: () => RunHistory): GatewayHandlers {
    return {
        runHistory: async ({query}) => ok(await historyOf().page(pageLimit(query.get("limit")), parseCursor(query.get("after")))),
        addRun: async ({readBody}) => {
            await historyOf().add(await readBody() as SavedRun);
            return ok({saved: true});
        },
        deleteRun: async ({params}) => ok({deleted: await historyOf().remove(paramName("the run id", params.id))}),
        clearHistory: async () => ok({deleted: await historyOf().clear()})
    };
}

type JobRouteNames = {list: GatewayRouteName, create: GatewayRouteName, get: GatewayRouteName, update: GatewayRouteName, add: GatewayRouteName, remove: GatewayRouteName};

/** The routes of one job store (scoring jobs, experiments): list, create with its table, read whole, update, add a result, delete. */
export function jobHandlers(storeOf: () => JobStore, names: JobRouteNames): GatewayHandlers {
    return {
        [names.list]: async () => ok(await storeOf().list()),
        [names.create]: async ({readBody}: GatewayCall) => {
            const body = readObject(await readBody(), []);
            if (body.table === undefined) throw new GatewayError(400, "invalid_request", "invalid_request_error", "table: is required");
            await storeOf().create(body.record as JobRecord, body.table);
            return {status: 201, body: {created: true}};
        },
        [names.get]: async ({params}: GatewayCall) => {
            const jobId = paramName("the job id", params.id);
            const job = await storeOf().whole(jobId);
            if (job === null) throw new GatewayError(404, "job_not_found", "invalid_request_error", `no job ${jobId}`);
            return ok({...job, record: job.record as SavedJobRecord});
        },
        [names.update]: async ({params, readBody}: GatewayCall) =>
            ok({record: await storeOf().update(paramName("the job id", params.id), await readBody() as Partial<JobRecord>)}),
        [names.add]: async ({params, readBody}: GatewayCall) =>
            ok({stored: await storeOf().putResult(paramName("the job id", params.id), await readBody() as RowResult)}),
        [names.remove]: async ({params}: GatewayCall) => ok({deleted: await storeOf().remove(paramName("the job id", params.id))})
    };
}

/** What of the old folders of one kind could not be read stops being reported (the files stay where they are). */
export function itemProblemHandlers(database: () => Promise<AppDatabase>): GatewayHandlers {
    return {
        acknowledgeItemProblems: async ({readBody}) => {
            const kind = readEnum(readObject(await readBody(), []).kind, ["kind"], itemKinds);
            return ok({acknowledged: acknowledgeKeptAside(await database(), kind)});
        }
    };
}

/** A page's `limit`: appDataLimits.historyPageSize when absent, at most appDataLimits.maxHistoryPageSize. */
function pageLimit(text: string | null): number {
    if (text === null || text === "") return appDataLimits.historyPageSize;
    if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > appDataLimits.maxHistoryPageSize)
        throw new GatewayError(400, "invalid_request", "invalid_request_error",
            `limit: must be an integer from 1 to ${appDataLimits.maxHistoryPageSize} (appDataLimits.maxHistoryPageSize), got ${JSON.stringify(text.slice(0, 40))}`);
    return Number(text);
}

function ok(body: unknown): GatewayAnswer {
    return {status: 200, body};
}
