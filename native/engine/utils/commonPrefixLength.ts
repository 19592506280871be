/** Length of the shared prefix of two token lists: the part of a prompt the KV cache can keep. */
export function commonPrefixLength(a: readonly number[], b: readonly number[]): number {
    const limit = Math.min(a.length, b.length);
    let index = 0;
    while (index < limit && a[index] === b[index]) index++;
    return index;
}
