/** Two overlapping sheets, drawn like components/Icon (which has no "duplicate" glyph). */
export function DuplicateIcon() {
    return (
        <svg className="icon" width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M9 9h11v11H9zM5 15H4V4h11v1" />
        </svg>
    );
}
