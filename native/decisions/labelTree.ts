import {logSoftmax} from "./probabilities.ts";

// Up to 512 options (64 levels) but only 26 single-token letters: options are labelled A..Z when they fit;
// beyond that the model answers in nested rounds. The first round shows groups (A = options 1-20, B = 21-40,
// ...), the next round shows the options of one group, labelled A.. again. An option's log-probability is the
// sum of the log-probabilities of the labels on its path, so P(option) = P(group) * P(option | group); because
// each round is a full softmax, the leaves always sum to 1. Depth grows with log26(n); 512 options need two
// rounds (20 groups of 25-26). Groups are contiguous in the given order and as equal in size as possible.

export const labelAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");

export type LabelTreeChild = {
    label: string,
    /** Indices into the question's option list covered by this child, ascending. */
    options: number[],
    /** The next round when this child is a group; absent when it is a single option. */
    node?: LabelTreeNode
};

export type LabelTreeNode = {
    /** Labels chosen from the root to reach this node, joined ("" at the root, "C" for group C): the combiner's key. */
    key: string,
    children: LabelTreeChild[]
};

/** Plans the label rounds for `optionCount` options (at least 2), labels drawn from `alphabet` (default A..Z). */
export function planLabelTree(optionCount: number, alphabet: readonly string[] = labelAlphabet): LabelTreeNode {
    if (!Number.isInteger(optionCount) || optionCount < 2) throw new RangeError(`planLabelTree: needs at least two options, got ${optionCount}`);
    if (alphabet.length < 2 || new Set(alphabet).size !== alphabet.length) throw new RangeError("planLabelTree: alphabet needs at least two distinct labels");
    return planNode(Array.from({length: optionCount}, (_, index) => index), "", alphabet);
}

function planNode(options: number[], key: string, alphabet: readonly string[]): LabelTreeNode {
    const width = alphabet.length;
    // Smallest capacity width^(depth-1) per child that lets `width` children hold every option.
    let perChild = 1;
    while (perChild * width < options.length) perChild *= width;
    const groupCount = Math.ceil(options.length / perChild);
    const children: LabelTreeChild[] = [];
    let start = 0;
    for (let group = 0; group < groupCount; group++) {
        // Even split: the first (length % groupCount) groups take one extra option.
        const size = Math.floor(options.length / groupCount) + (group < options.length % groupCount ? 1 : 0);
        const members = options.slice(start, start + size);
        start += size;
        const label = alphabet[group];
        children.push(members.length === 1
            ? {label, options: members}
            : {label, options: members, node: planNode(members, key + label, alphabet)});
    }
    return {key, children};
}

/** Every node that needs a model round, parents before children (breadth first). */
export function labelTreeNodes(root: LabelTreeNode): LabelTreeNode[] {
    const nodes = [root];
    for (let index = 0; index < nodes.length; index++)
        for (const child of nodes[index].children)
            if (child.node) nodes.push(child.node);
    return nodes;
}

/**
 * The option distribution from each node's pooled label logits (`logitsByNode.get(node.key)[i]` belongs to
 * `node.children[i]`): log-probabilities are added along each path, then exponentiated.
 */
export function combineLabelTree(root: LabelTreeNode, logitsByNode: ReadonlyMap<string, readonly number[]>, optionCount: number, temperature = 1): number[] {
    const probabilities = new Array<number>(optionCount).fill(Number.NaN);
    const visit = (node: LabelTreeNode, pathLogProbability: number) => {
        const logits = logitsByNode.get(node.key);
        if (!logits || logits.length !== node.children.length)
            throw new RangeError(`combineLabelTree: node "${node.key}" needs ${node.children.length} logits, got ${logits?.length ?? "none"}`);
        const logProbabilities = logSoftmax(logits, temperature);
        node.children.forEach((child, index) => {
            const logProbability = pathLogProbability + logProbabilities[index];
            if (child.node) visit(child.node, logProbability);
            else probabilities[child.options[0]] = Math.exp(logProbability);
        });
    };
    visit(root, 0);
    if (probabilities.some(Number.isNaN)) throw new RangeError(`combineLabelTree: the tree does not cover ${optionCount} options`);
    return probabilities;
}
