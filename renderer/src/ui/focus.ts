// Keeping the keyboard focus on screen when what had it goes away (a removed item, a closed confirmation) or what
// should get it does not exist yet (a new item's field).
import {useEffect, useRef} from "react";

/**
 * `focusNext(find)` asks for the focus to go, after the owner's next render, to the element `find` picks then: a new
 * item's field, which did not exist before; the next item's Remove, since the removed one's went with it. A text
 * field's text is selected, so typing replaces a default.
 */
export function usePendingFocus(): (find: () => HTMLElement | null | undefined) => void {
    const pending = useRef<(() => HTMLElement | null | undefined) | null>(null);
    useEffect(() => {
        const find = pending.current;
        if (find == null) return;
        pending.current = null;
        const target = find();
        target?.focus();
        if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) target.select();
    });
    return (find) => {
        pending.current = find;
    };
}
