/** A question set remembered on this machine: the browser cannot reopen a file by its path, so the text is kept. */
export type RecentSet = {name: string, text: string, savedAt: number};

export const maxRecentSets = 10;

/** The list with `entry` first; an older entry with the same text, or the same name, is dropped. */
export function addRecentSet(list: readonly RecentSet[], entry: RecentSet): RecentSet[] {
    return [entry, ...list.filter((item) => item.text !== entry.text && item.name !== entry.name)].slice(0, maxRecentSets);
}
