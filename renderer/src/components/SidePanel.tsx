import type {ReactNode} from "react";

/** The right-hand column of a playground: settings that shape the request. */
export function SidePanel({children}: {children: ReactNode}) {
    return <aside className="side-panel">{children}</aside>;
}
