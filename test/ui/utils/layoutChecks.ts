// Checks a page as a person would see it: controls cut off by the window or by an ancestor that hides its overflow,
// and what axe-core (run in the page) reports as serious or critical against WCAG 2 A and AA, colour contrast included.
import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import type {Page} from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** One problem, in words a failing test can print. */
export type LayoutProblem = string;

/**
 * Visible controls (buttons, fields, links, tabs) that the window or an ancestor that hides or scrolls its overflow
 * cuts off sideways, and text that an ellipsis cuts short in a control or that an empty field's width cuts short in
 * its placeholder.
 */
export async function cutOffControls(page: Page): Promise<LayoutProblem[]> {
    // tsx compiles this file keeping function names, through a `__name` helper the page does not have.
    await page.evaluate("globalThis.__name ??= (target) => target");
    return page.evaluate(() => {
        const problems: string[] = [];
        const describe = (element: Element) => {
            const label = element.getAttribute("aria-label") ?? element.getAttribute("data-testid") ?? (element.textContent ?? "").trim().slice(0, 40);
            return `<${element.tagName.toLowerCase()}> "${label}"`;
        };
        const controls = document.querySelectorAll("button, input:not([type=hidden]), select, textarea, a[href], [role=tab], [role=button], summary");
        for (const control of controls) {
            const rect = control.getBoundingClientRect();
            const style = getComputedStyle(control);
            if (rect.width === 0 || rect.height === 0 || style.visibility === "hidden") continue;
            // Inside a closed <details> or an element hidden by its container: not on screen, nothing to check.
            if (control.closest("details:not([open]) > :not(summary)") != null) continue;
            // The one exception: a data table wider than its panel (role table or grid), which people do scroll sideways;
            // its controls past that panel's edge (or the window's) are reached that way.
            let tableScroller: Element | null = null;
            for (let ancestor = control.parentElement; ancestor != null && ancestor !== document.body && tableScroller == null; ancestor = ancestor.parentElement)
                if (/auto|scroll/.test(getComputedStyle(ancestor).overflowX) && ancestor.querySelector(":scope > [role=table], :scope > [role=grid]") != null) tableScroller = ancestor;
            if (tableScroller == null && (rect.right > window.innerWidth + 1 || rect.left < -1)) {
                problems.push(`${describe(control)} is cut off by the window (x ${Math.round(rect.left)}-${Math.round(rect.right)} of ${window.innerWidth})`);
                continue;
            }
            // Sideways, a control past the edge of an ancestor that does not show its overflow is hidden, whether that
            // ancestor clips or scrolls: nobody looks for a button by scrolling a panel sideways. Up and down, scrolling is
            // how pages work, so only the horizontal extent is checked.
            for (let ancestor = control.parentElement; ancestor != null && ancestor !== document.body && ancestor !== tableScroller; ancestor = ancestor.parentElement) {
                const overflowX = getComputedStyle(ancestor).overflowX;
                if (overflowX === "visible") continue;
                const box = ancestor.getBoundingClientRect();
                if (rect.right > box.right + 1 || rect.left < box.left - 1) {
                    problems.push(`${describe(control)} is cut off by ${describe(ancestor)} (x ${Math.round(rect.left)}-${Math.round(rect.right)}, box ${Math.round(box.left)}-${Math.round(box.right)})`);
                    break;
                }
            }
            if (style.textOverflow === "ellipsis" && control.scrollWidth > control.clientWidth + 1)
                problems.push(`${describe(control)} shows its text cut short by an ellipsis`);
            // An empty field's placeholder that does not fit is cut short too ("the loaded mo").
            if (control instanceof HTMLInputElement && control.placeholder !== "" && control.value === "") {
                // Its width in the field's own font, as the page lays out text (a canvas resolves font families its own way) ...
                const probe = document.createElement("span");
                probe.style.cssText = "position: fixed; left: 0; top: 0; visibility: hidden; white-space: pre";
                probe.style.font = style.font;
                probe.style.letterSpacing = style.letterSpacing;
                probe.textContent = control.placeholder;
                document.body.append(probe);
                const needed = probe.getBoundingClientRect().width;
                probe.remove();
                const room = control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
                // ... and, where the field takes it as a value, whether the field scrolls it: that counts what else the
                // field shows beside its text (a datalist's picker). Set and cleared without an input event, which the page never sees.
                control.value = control.placeholder;
                const scrolls = control.value !== "" && control.scrollWidth > control.clientWidth;
                control.value = "";
                if (needed > room + 1 || scrolls)
                    problems.push(`${describe(control)} shows its placeholder "${control.placeholder}" cut short (${needed > room + 1 ? `${Math.round(needed)} px in ${Math.round(room)} px` : "the field scrolls it"})`);
            }
        }
        return problems;
    });
}

/** axe-core's serious and critical violations of WCAG 2 A and AA on the page as it is now, one line per element. */
export async function accessibilityViolations(page: Page): Promise<LayoutProblem[]> {
    // Evaluated, not added as a <script>: the app's Content-Security-Policy refuses inline scripts.
    if (!await page.evaluate(() => "axe" in window)) await page.evaluate(axeSource);
    return page.evaluate(async () => {
        const axe = (window as unknown as {axe: {run(context: Document, options: object): Promise<{violations: Array<{id: string, impact: string, help: string, nodes: Array<{target: string[], failureSummary: string}>}>}>}}).axe;
        const result = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, resultTypes: ["violations"]});
        return result.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
            .flatMap((violation) => violation.nodes.map((node) => `${violation.id} (${violation.help}) at ${node.target.join(" ")}: ${node.failureSummary.replace(/\s+/g, " ").slice(0, 240)}`));
    });
}

/**
 * The document's own scrolling: none, since the app fills the window and only its panes scroll. Content that stretches
 * the document (something positioned outside every pane) lets the wheel or a focus move the whole app off screen.
 */
export async function documentOverflow(page: Page): Promise<LayoutProblem[]> {
    return page.evaluate(() => {
        const document_ = document.scrollingElement!;
        const problems: string[] = [];
        if (document_.scrollHeight !== window.innerHeight) problems.push(`the document is ${document_.scrollHeight} px tall in a ${window.innerHeight} px window`);
        if (document_.scrollWidth !== window.innerWidth) problems.push(`the document is ${document_.scrollWidth} px wide in a ${window.innerWidth} px window`);
        return problems;
    });
}
