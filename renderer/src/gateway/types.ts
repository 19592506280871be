// `GET /gateway/api/state`: the gateway's own type, imported as a type only (nothing of electron/ reaches the
// bundle), so the renderer cannot drift from what the gateway sends.
import type {GatewayState as GatewayStateType} from "../../../electron/gateway/GatewayState.ts";

export type GatewayState = GatewayStateType;
export type EngineState = GatewayState["engine"];
export type EngineStatus = EngineState["status"];
export type Connection = GatewayState["connections"][number];
