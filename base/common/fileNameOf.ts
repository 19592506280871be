/** The last segment of a file path, POSIX or Windows (the engine reports models and projectors by full path). */
export function fileNameOf(filePath: string): string {
    return filePath.split(/[\\/]/).filter((part) => part !== "").at(-1) ?? filePath;
}
