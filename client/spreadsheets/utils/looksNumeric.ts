/** A number as people write one in a cell: `42`, `-3.5`, `1e6`, `.5`; thousands separators and units excluded. */
export function looksNumeric(text: string): boolean {
    return /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text.trim());
}
