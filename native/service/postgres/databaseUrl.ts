// The database URL as the command line takes it, in a module of its own so that parsing flags never loads the driver.

/** `postgres://` or `postgresql://`: what `--database` and `SVC_STUDIO_DATABASE_URL` take. */
export function isPostgresUrl(text: string): boolean {
    return /^postgres(ql)?:\/\//.test(text) && URL.canParse(text);
}

/** The URL as messages show it: its password replaced. */
export function redactedUrl(url: string): string {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "****";
    return parsed.toString();
}
