// Whether the answers on screen still belong to the studio's question set and input: a run's request against the one
// Run would send now. Image data is compared shortened (as a kept run holds it), and the local engine's own
// `x_svc.label_mass` (added when sent) is left out.
import {useMemo} from "react";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {buildDecisionRequest} from "../questionSet/requests.ts";
import {elideDataUrls} from "../playground/viewCode.ts";
import {useResolvedInput} from "./decisionInput.ts";
import {useDecisionInputStore, type DecisionRunResult} from "./studioState.ts";

function comparable(body: unknown): string {
    const shortened = elideDataUrls(body) as Record<string, unknown> | null;
    if (shortened === null || typeof shortened !== "object") return JSON.stringify(shortened);
    const {x_svc: xSvc, ...rest} = shortened;
    const {label_mass: _labelMass, ...others} = (xSvc ?? {}) as Record<string, unknown>;
    return JSON.stringify(Object.keys(others).length === 0 ? rest : {...rest, x_svc: others});
}

/** True when the run was sent and the request Run would send now differs from it; false when no request can be made. */
export function isStale(result: Pick<DecisionRunResult, "sent" | "body">, current: unknown): boolean {
    return result.sent && current !== null && comparable(current) !== comparable(result.body);
}

/** The body Run would send now (null while the set or the input cannot make one). */
export function useCurrentRequestBody(): unknown {
    const draft = useQuestionSetStore((state) => state.draft);
    const images = useDecisionInputStore((state) => state.images);
    const resolved = useResolvedInput();
    return useMemo(() => {
        if (resolved.input === null) return null;
        try {
            return buildDecisionRequest(draft, resolved.input, images.map((image) => image.dataUrl)).body;
        } catch {
            return null;
        }
    }, [draft, images, resolved]);
}
