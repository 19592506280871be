import {ApiError} from "../../protocol/errors.ts";

/**
 * An ApiError for the gateway's own codes (`invalid_gateway_token`, `no_remote_connection`, ...), which the
 * protocol's code->type table does not know: the gateway contract names their `type` explicitly.
 */
export class GatewayError extends ApiError {
    public override readonly type: string;

    public constructor(status: number, code: string, type: string, message: string) {
        super(status, code, message);
        this.name = "GatewayError";
        this.type = type;
    }
}
