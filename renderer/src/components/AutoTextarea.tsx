import {useLayoutEffect, useRef, type TextareaHTMLAttributes} from "react";

/** A textarea that grows with its text (up to a cap set in CSS), so messages read like messages. */
export function AutoTextarea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
    const ref = useRef<HTMLTextAreaElement>(null);
    useLayoutEffect(() => {
        const element = ref.current;
        if (!element) return;
        const fit = () => {
            element.style.height = "auto";
            element.style.height = `${element.scrollHeight + 2}px`;
        };
        fit();
        // The text re-wraps when the column changes width (a panel opens, the window resizes).
        let width = element.clientWidth;
        const observer = new ResizeObserver(() => {
            if (element.clientWidth === width) return;
            width = element.clientWidth;
            fit();
        });
        observer.observe(element);
        return () => observer.disconnect();
    }, [props.value]);
    return <textarea ref={ref} rows={1} {...props} className={`input textarea ${props.className ?? ""}`} />;
}
