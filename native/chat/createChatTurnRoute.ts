import {limits} from "../../protocol/limits.ts";
import {checkModelMatchesPath} from "../http/checkModelMatchesPath.ts";
import type {RequestContext} from "../http/RequestContext.ts";
import type {Route} from "../http/Route.ts";
import type {ChatModelVariant} from "./chatModelVariants.ts";
import {ChatTurnSession} from "./ChatTurnSession.ts";
import type {ChatTurnRequest} from "./planChatTurn.ts";

/**
 * A `POST` endpoint whose request is one chat turn of `variant` (chat completions, Responses): parse the body,
 * check its model against the path, lease a sequence for the turn, answer, and always give the sequence back.
 */
export function createChatTurnRoute<Request extends {model: string}>(variant: ChatModelVariant, {path, parse, toTurnRequest, answer}: {
    path: string,
    parse(body: unknown): Request,
    toTurnRequest(request: Request): ChatTurnRequest,
    answer(context: RequestContext, request: Request, session: ChatTurnSession): Promise<void>
}): Route {
    return {
        method: "POST",
        model: variant.id,
        path,
        maxBodyBytes: limits.chatBodyBytes,
        async handle(context, body) {
            const request = parse(body);
            checkModelMatchesPath(request.model, context);
            const session = await ChatTurnSession.open(variant.engine, variant, toTurnRequest(request), context.signal);
            try {
                await answer(context, request, session);
            } finally {
                session.release();
            }
        }
    };
}
