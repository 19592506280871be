/** JSON.parse with the error as a one-line message for an inline hint ("Unexpected token } at 12"). */
export function parseJsonText(text: string): {value: unknown} | {error: string} {
    try {
        return {value: JSON.parse(text)};
    } catch (error) {
        return {error: `Invalid JSON: ${(error as Error).message}`};
    }
}
