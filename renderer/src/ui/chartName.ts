// Charts as images with a name: recharts draws an SVG with role="application", a tab stop and no name by default,
// which a screen reader announces as an unnamed application and which holds its numbers only in hover tooltips.

/**
 * Props for a recharts chart (`<BarChart {...chartName("…")}>`): an image named `label`, out of the tab order.
 * The label carries the chart's numbers (or says where beside it they are written), since an image has no children.
 */
export function chartName(label: string): {role: "img", "aria-label": string, accessibilityLayer: false} {
    return {role: "img", "aria-label": label, accessibilityLayer: false};
}
