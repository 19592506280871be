import type {HistoryKind} from "../history/types.ts";
import type {ParamValues} from "../params/types.ts";

/** A saved parameter set for one playground. */
export type Preset = {id: string, name: string, kind: HistoryKind, params: ParamValues, createdAt: number};
