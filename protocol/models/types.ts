/** The standard model object of `GET /models/{id}` (spec 2.11). */
export type ModelObject = {id: string, object: "model", created: number, owned_by: string};

export type ModelList = {object: "list", data: ModelObject[]};
