import {useLayoutEffect, useRef} from "react";

/**
 * Keeps a scrolling element pinned to its end while it grows (a streaming reply), unless the reader has
 * scrolled up to read: then it stays where they are.
 */
export function useStickToBottom<T extends HTMLElement>(content: unknown) {
    const ref = useRef<T>(null);
    const pinned = useRef(true);
    useLayoutEffect(() => {
        const element = ref.current;
        if (element && pinned.current) element.scrollTop = element.scrollHeight;
    }, [content]);
    const onScroll = () => {
        const element = ref.current;
        if (element) pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
    };
    return {ref, onScroll};
}
