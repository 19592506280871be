/** Puts `<meta name="svc-gateway-token">` first in <head>, where the renderer reads it before any API call. */
export function injectTokenMeta(html: string, token: string): string {
    const meta = `<meta name="svc-gateway-token" content="${token}">`;
    const head = /<head(\s[^>]*)?>/i.exec(html);
    if (head == null) return meta + html;
    const end = head.index + head[0].length;
    return html.slice(0, end) + meta + html.slice(end);
}
