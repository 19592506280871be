import type {QuestionInfo} from "../questions/types.ts";
import type {CellValue} from "../spreadsheets/types.ts";

const yes = new Set(["true", "yes", "y", "1", "t"]);
const no = new Set(["false", "no", "n", "0", "f"]);

/**
 * The option a label cell names, as an index into `info.options`; null for an empty cell (unlabelled), and
 * undefined for a label that names no option (reported, never guessed). yesno: true / false, yes / no, y / n,
 * 1 / 0, t / f in any case. choice: the value as written, else ignoring case and outer spaces. score: the level
 * index (0 = lowest) or the level's label.
 */
export function readLabel(info: QuestionInfo, cell: CellValue): number | null | undefined {
    if (cell === null || (typeof cell === "string" && cell.trim() === "")) return null;
    const text = String(cell).trim();
    if (info.kind === "yesno") {
        const lower = text.toLowerCase();
        if (yes.has(lower)) return 0;
        if (no.has(lower)) return 1;
        return undefined;
    }
    if (info.kind === "score" && /^\d+(\.0+)?$/.test(text)) {
        const level = Number(text);
        return level < info.options.length ? level : undefined;
    }
    const compare = info.kind === "score" ? (option: {label: string}) => option.label : (option: {value: unknown}) => String(option.value);
    const raw = String(cell);
    const exact = info.options.findIndex((option) => compare(option) === raw);
    if (exact >= 0) return exact;
    const folded = info.options.findIndex((option) => compare(option).trim().toLowerCase() === text.toLowerCase());
    return folded >= 0 ? folded : undefined;
}
