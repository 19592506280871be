import {useDeferredValue, useMemo} from "react";
import {useScoringStore} from "../../scoring/state/useScoringStore.ts";
import {useDecisionInputStore} from "../state/useDecisionInputStore.ts";
import {resolveDecisionInput} from "./resolveDecisionInput.ts";

/** The current input of the builder (text, JSON state or a table row), resolved for a request. */
export function useResolvedInput() {
    const mode = useDecisionInputStore((state) => state.mode);
    const text = useDecisionInputStore((state) => state.text);
    const jsonText = useDeferredValue(useDecisionInputStore((state) => state.jsonText));
    const rowIndex = useDecisionInputStore((state) => state.rowIndex);
    const table = useScoringStore((state) => state.table);
    const mapping = useScoringStore((state) => state.mapping);
    return useMemo(() => resolveDecisionInput({mode, text, jsonText, rowIndex}, table === null ? null : {columns: table.columns, rows: table.rows, mapping}),
        [mode, text, jsonText, rowIndex, table, mapping]);
}

/** The same, read once outside React (when Run is pressed). */
export function currentInput() {
    const input = useDecisionInputStore.getState();
    const scoring = useScoringStore.getState();
    return resolveDecisionInput(input, scoring.table === null ? null : {columns: scoring.table.columns, rows: scoring.table.rows, mapping: scoring.mapping});
}
