// `GET /gateway/api/state`, from the gateway contract (protocol/gateway), so the renderer cannot drift from the gateway.
import type {GatewayState as GatewayStateType} from "../../../protocol/gateway/contract.ts";

export type GatewayState = GatewayStateType;
export type EngineState = GatewayState["engine"];
export type EngineStatus = EngineState["status"];
export type Connection = GatewayState["connections"][number];
