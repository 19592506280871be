import {test} from "node:test";
import assert from "node:assert/strict";
import {combineLabelTree, labelAlphabet, labelTreeNodes, planLabelTree, type LabelTreeNode} from "./labelTree.ts";

function random(seed: number) {
    return () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
    };
}

/** Every option's label path, found by walking the plan. */
function paths(root: LabelTreeNode): Map<number, Array<{node: LabelTreeNode, childIndex: number}>> {
    const found = new Map<number, Array<{node: LabelTreeNode, childIndex: number}>>();
    const walk = (node: LabelTreeNode, path: Array<{node: LabelTreeNode, childIndex: number}>) => node.children.forEach((child, childIndex) => {
        // A node's key is the labels chosen on the way to it.
        assert.equal(node.key, path.map((step) => step.node.children[step.childIndex].label).join(""));
        const step = [...path, {node, childIndex}];
        if (child.node) walk(child.node, step);
        else {
            assert.equal(child.options.length, 1);
            assert.ok(!found.has(child.options[0]), `option ${child.options[0]} appears twice`);
            found.set(child.options[0], step);
        }
    });
    walk(root, []);
    return found;
}

function checkPlan(optionCount: number) {
    const root = planLabelTree(optionCount);
    const found = paths(root);
    assert.equal(found.size, optionCount, "every option is a leaf exactly once");
    for (const node of labelTreeNodes(root)) {
        assert.ok(node.children.length >= 2 && node.children.length <= 26);
        assert.deepEqual(node.children.map((child) => child.label), labelAlphabet.slice(0, node.children.length));
        // A group covers exactly the options of its subtree, and group sizes differ by at most one.
        for (const child of node.children) if (child.node) assert.deepEqual(child.options, child.node.children.flatMap((grandchild) => grandchild.options));
        const sizes = node.children.map((child) => child.options.length);
        assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1);
    }
    return {root, found};
}

test("2 and 26 options need one round labelled A..", () => {
    for (const count of [2, 26]) {
        const {root} = checkPlan(count);
        assert.equal(labelTreeNodes(root).length, 1);
        assert.deepEqual(root.children.map((child) => child.options[0]), Array.from({length: count}, (_, index) => index));
        assert.equal(root.children.at(-1)?.label, labelAlphabet[count - 1]);
    }
});

test("27 options become two groups of 14 and 13, answered in a second round", () => {
    const {root} = checkPlan(27);
    assert.deepEqual(root.children.map((child) => [child.label, child.options.length]), [["A", 14], ["B", 13]]);
    assert.deepEqual(labelTreeNodes(root).map((node) => node.key), ["", "A", "B"]);
    assert.deepEqual(root.children[1].node?.children[0].options, [14]);
});

test("512 options become 20 groups of 25 or 26: two rounds, 21 nodes", () => {
    const {root} = checkPlan(512);
    assert.equal(root.children.length, 20);
    assert.ok(root.children.every((child) => child.options.length === 25 || child.options.length === 26));
    assert.equal(labelTreeNodes(root).length, 21);
});

test("more than 676 options get a third round", () => {
    const {root} = checkPlan(700);
    assert.equal(root.children.length, 2);
    assert.ok(root.children.every((child) => child.node?.children.every((grandchild) => grandchild.node)));
});

test("the combined distribution sums to 1 and matches the product of per-round probabilities", () => {
    for (const [count, seed] of [[2, 1], [26, 2], [27, 3], [100, 4], [512, 5], [700, 6]]) {
        const next = random(seed);
        const root = planLabelTree(count);
        const logits = new Map(labelTreeNodes(root).map((node) => [node.key, node.children.map(() => (next() - 0.5) * 16)]));
        const combined = combineLabelTree(root, logits, count);
        assert.ok(Math.abs(combined.reduce((a, b) => a + b, 0) - 1) < 1e-9, `sum for ${count}`);
        // Brute force: multiply plain softmax probabilities of the chosen label along each option's path.
        for (const [option, path] of paths(root)) {
            const expected = path.reduce((product, {node, childIndex}) => {
                const row = logits.get(node.key)!;
                return product * Math.exp(row[childIndex]) / row.reduce((sum, logit) => sum + Math.exp(logit), 0);
            }, 1);
            assert.ok(Math.abs(combined[option] - expected) < 1e-12, `option ${option} of ${count}`);
        }
    }
});

test("a missing node or a wrong number of logits throws", () => {
    const root = planLabelTree(27);
    assert.throws(() => combineLabelTree(root, new Map([["", [0, 0]]]), 27), RangeError);
    assert.throws(() => combineLabelTree(planLabelTree(3), new Map([["", [0, 0]]]), 3), RangeError);
    assert.throws(() => planLabelTree(1), RangeError);
});
