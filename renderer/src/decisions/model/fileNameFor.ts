/** `My set!` -> `my-set.questions.json`: a file name that survives every file system. */
export function fileNameFor(setName: string): string {
    const slug = setName.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
    return `${slug || "question-set"}.questions.json`;
}
