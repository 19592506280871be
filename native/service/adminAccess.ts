import type {IncomingMessage} from "node:http";
import {ApiError} from "../../protocol/errors.ts";
import {bearerToken} from "../http/gate.ts";
import {isLoopbackHost, normaliseOrigin} from "../http/browserPolicy.ts";
import {hashKey, keyMatches} from "./keys.ts";

/** The variable that hands `serve` the admin key without putting it on the command line (see engineKeyEnv.ts for why). */
export const adminKeyEnvVar = "SVC_STUDIO_ADMIN_KEY";

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`), as Node reports a socket's peer. */
export function isLoopbackAddress(address: string | undefined): boolean {
    if (address == null) return false;
    const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
    return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Who may use the admin API and `/metrics` (issue 14: never open to the network). With an admin key, whoever
 * presents it (compared in constant time). Without one, only this machine: a loopback peer, a Host naming the
 * loopback (a DNS-rebinding page sends its own name) and no Origin but a loopback one, since a web page in the
 * user's browser is also a loopback peer and, once the server is keyed, CORS would let it read the answer.
 */
export class AdminAccess {
    private readonly keyHash?: Buffer;

    public constructor(adminKey: string | undefined) {
        this.keyHash = adminKey != null && adminKey !== "" ? hashKey(adminKey) : undefined;
    }

    public check(req: IncomingMessage) {
        if (this.keyHash != null) {
            const token = bearerToken(req);
            if (token == null || !keyMatches(token, this.keyHash))
                throw new ApiError(401, "invalid_api_key", "the admin API needs the admin key: send Authorization: Bearer <admin key>");
            return;
        }
        const origin = req.headers.origin;
        const originHost = origin == null ? undefined : normaliseOrigin(origin) && new URL(normaliseOrigin(origin)!).host;
        if (!isLoopbackAddress(req.socket.remoteAddress) || !isLoopbackHost(req.headers.host) || (origin != null && !isLoopbackHost(originHost)))
            throw new ApiError(403, "admin_forbidden", "the admin API answers this machine only (a loopback address, Host and Origin); " +
                `to reach it from elsewhere, start the server with --admin-key or $${adminKeyEnvVar}`);
    }
}
