/** `base`, or `base_2`, `base_3`... : the first that is not taken. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
    if (!taken.has(base)) return base;
    for (let suffix = 2; ; suffix++) {
        const name = `${base}_${suffix}`;
        if (!taken.has(name)) return name;
    }
}
