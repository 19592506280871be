import type {ModelList, ModelObject} from "../../protocol/models/types.ts";
import type {Route} from "../http/HttpServer.ts";
import {writeSuccess} from "../http/replies.ts";

/**
 * `GET /{model}/v1/models` and `GET /{model}/v1/models/{id}` (spec 2.11): the standard list and model objects
 * of the ids served at this base URL.
 */
export function createModelsRoutes(baseModel: string, servedIds: string[], created: number): Route[] {
    const objects: ModelObject[] = servedIds.map((id) => ({id, object: "model", created, owned_by: "svc-studio"}));
    const list: Route = {
        method: "GET",
        model: baseModel,
        path: "/v1/models",
        async handle(context) {
            writeSuccess(context, {object: "list", data: objects} satisfies ModelList);
        }
    };
    const single = objects.map((object): Route => ({
        method: "GET",
        model: baseModel,
        path: `/v1/models/${object.id}`,
        async handle(context) {
            writeSuccess(context, object);
        }
    }));
    return [list, ...single];
}
