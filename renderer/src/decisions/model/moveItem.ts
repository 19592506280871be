/** A copy of `items` with the item at `from` moved by `offset` places; unchanged when that leaves the list. */
export function moveItem<T>(items: readonly T[], from: number, offset: number): T[] {
    const to = from + offset;
    if (from < 0 || from >= items.length || to < 0 || to >= items.length) return [...items];
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    return next;
}
