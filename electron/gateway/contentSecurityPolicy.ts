/**
 * The policy sent with every HTML page of the gateway (and enforced again by Electron main): scripts only from
 * the gateway origin, network only to it (the renderer reaches engines and remotes through its proxy), workers
 * from blob: for Monaco, inline styles for React and Monaco.
 */
export const contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'"
].join("; ");
