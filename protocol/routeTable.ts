// A table of named HTTP routes, written once and used by both sides: the server matches requests on it and a
// typed client builds calls from it. The gateway API (gateway/routes.ts) and the engine's admin API
// (admin/routes.ts) are such tables.

export type RouteMethod = "GET" | "POST" | "DELETE";

/** One route: `:name` segments of `path` are parameters, sent URL-encoded. */
export type RouteSpec = {method: RouteMethod, path: string};

export type RouteMatch<Name extends string> = {name: Name, params: Record<string, string>};

/** Sends one call; the caller's implementation adds credentials and turns a non-2xx into an error. */
export type RouteSend = (method: RouteMethod, path: string, body?: unknown, query?: string) => Promise<unknown>;

/** What a route takes (its body) and answers. */
export type RouteTypes<Name extends string> = Record<Name, {body: unknown, answer: unknown}>;

export type RouteTable<Name extends string> = {
    /**
     * The route for `method` and `path`, with its parameters still URL-encoded; `undefined` when none matches.
     * Fixed segments win over parameters (`/models/downloads` is not the model named "downloads").
     */
    match(method: string, path: string): RouteMatch<Name> | undefined,
    /** The path of a route with its parameters filled in (URL-encoded). */
    path(name: Name, params?: Record<string, string>): string,
    /** A function that sends one typed call of the table over `send`. */
    caller<Types extends RouteTypes<Name>>(send: RouteSend): <N extends Name>(name: N, options?: CallOptions<Types[N]["body"]>) => Promise<Types[N]["answer"]>
};

export type CallOptions<Body> = {params?: Record<string, string>, body?: Body, query?: string};

export function routeTable<Name extends string>(routes: Record<Name, RouteSpec>): RouteTable<Name> {
    const compiled = (Object.entries(routes) as Array<[Name, RouteSpec]>).map(([name, route]) => ({
        name,
        method: route.method as string,
        names: [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]),
        pattern: new RegExp(`^${route.path.replace(/:\w+/g, "([^/]+)")}$`)
    }));
    const path = (name: Name, params: Record<string, string> = {}) =>
        routes[name].path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ""));
    return {
        match(method, candidate) {
            let best: RouteMatch<Name> | undefined;
            for (const route of compiled) {
                if (route.method !== method) continue;
                const found = route.pattern.exec(candidate);
                if (found == null) continue;
                const params = Object.fromEntries(route.names.map((key, index) => [key, found[index + 1]]));
                if (best == null || route.names.length < Object.keys(best.params).length) best = {name: route.name, params};
            }
            return best;
        },
        path,
        caller<Types extends RouteTypes<Name>>(send: RouteSend) {
            return <N extends Name>(name: N, options: CallOptions<Types[N]["body"]> = {}) =>
                send(routes[name].method, path(name, options.params), options.body, options.query) as Promise<Types[N]["answer"]>;
        }
    };
}
