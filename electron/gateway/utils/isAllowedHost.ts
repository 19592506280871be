/**
 * DNS-rebinding guard: a page on evil.example that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example:PORT`, so only the two loopback spellings of our own port are accepted.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
    if (host == null) return false;
    const value = host.toLowerCase();
    return value === `127.0.0.1:${port}` || value === `localhost:${port}`;
}
