// Test-only: waits until the supervisor reports a status that matches.
import type {EngineSupervisor} from "../../../electron/engine/EngineSupervisor.ts";
import type {EngineStatus} from "../../../protocol/gateway/contract.ts";

export function waitForStatus(supervisor: EngineSupervisor, matches: (status: EngineStatus) => boolean, timeoutMs = 30_000): Promise<EngineStatus> {
    if (matches(supervisor.status())) return Promise.resolve(supervisor.status());
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            supervisor.off("status", listener);
            reject(new Error(`timed out waiting for the engine; last status ${JSON.stringify(supervisor.status())}`));
        }, timeoutMs);
        const listener = (status: EngineStatus) => {
            if (!matches(status)) return;
            clearTimeout(timer);
            supervisor.off("status", listener);
            resolve(status);
        };
        supervisor.on("status", listener);
    });
}
