import {useEffect, useRef} from "react";
import type {RunStatus} from "../runs/types.ts";

/** Scrolls the reply into view when a run starts, so the stream is seen even below a long conversation. */
export function useRevealWhenRunning<T extends HTMLElement>(status: RunStatus) {
    const ref = useRef<T>(null);
    useEffect(() => {
        if (status === "running") ref.current?.scrollIntoView({block: "nearest", behavior: "smooth"});
    }, [status]);
    return ref;
}
