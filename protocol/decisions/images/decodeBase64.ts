// Pure base64 decoding (protocol code runs in browsers too, so no Buffer). Strict: only the standard alphabet,
// padding optional but only at the end; anything else returns null so the caller can name the field at fault.

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const valueOf = new Int16Array(128).fill(-1);
for (let index = 0; index < alphabet.length; index++) valueOf[alphabet.charCodeAt(index)] = index;

export function decodeBase64(text: string): Uint8Array | null {
    let end = text.length;
    if (end % 4 === 0 && end > 0 && text.charCodeAt(end - 1) === 61 /* = */) {
        end--;
        if (text.charCodeAt(end - 1) === 61) end--;
    }
    // A single leftover character carries only 6 bits: never valid.
    if (end % 4 === 1) return null;
    const bytes = new Uint8Array(Math.floor(end * 3 / 4));
    let buffer = 0;
    let bits = 0;
    let written = 0;
    for (let index = 0; index < end; index++) {
        const code = text.charCodeAt(index);
        const digit = code < 128 ? valueOf[code] : -1;
        if (digit < 0) return null;
        buffer = (buffer << 6) | digit;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes[written++] = (buffer >> bits) & 0xff;
        }
    }
    return bytes;
}
