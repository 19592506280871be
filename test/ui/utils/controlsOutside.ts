import type {Locator} from "playwright-core";

/**
 * The visible buttons and fields inside `container` that lie, even in part, outside its box or the window, described
 * (a wide table pushes its last column past the card, or into a wrapper scrolled sideways, where nobody looks).
 */
export function controlsOutside(container: Locator): Promise<string[]> {
    return container.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return [...element.querySelectorAll("button, input, select, textarea")]
            .map((control) => ({label: control.getAttribute("data-testid") ?? control.textContent?.trim(), rect: control.getBoundingClientRect()}))
            .filter(({rect}) => rect.width > 0 && (rect.left < box.left - 1 || rect.right > box.right + 1 || rect.right > window.innerWidth))
            .map(({label, rect}) => `${label} at x ${Math.round(rect.left)}-${Math.round(rect.right)}, container ${Math.round(box.left)}-${Math.round(box.right)}, window ${window.innerWidth}`);
    });
}
