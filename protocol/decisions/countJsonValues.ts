// Spec 8: a decision request body holds at most 100,000 JSON values. We count every value node: the root,
// each object, array, string, number, boolean and null; object keys are names, not values. The walk is
// iterative, so a body nested 100,000 deep cannot overflow the stack, and it stops once `stopAfter` is passed.

export function countJsonValues(value: unknown, stopAfter = Infinity): number {
    let count = 0;
    const pending: unknown[] = [value];
    while (pending.length > 0) {
        const current = pending.pop();
        count++;
        if (count > stopAfter) return count;
        if (current !== null && typeof current === "object") {
            if (Array.isArray(current)) for (const item of current) pending.push(item);
            else for (const key of Object.keys(current)) pending.push((current as Record<string, unknown>)[key]);
        }
    }
    return count;
}
