// `tsx resources/makeIcon.ts`: draws the app icon (resources/icon.png, 512x512) with no image library: a few
// shapes as signed distance fields, anti-aliased by coverage, written by a minimal PNG encoder.
import {writeFile} from "node:fs/promises";
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {encodePng} from "../base/node/encodePng.ts";

type Rgba = [number, number, number, number];

const size = 512;
export const iconPath = fileURLToPath(new URL("./icon.png", import.meta.url));

/** Renders the icon: an indigo-to-violet rounded square holding a white speech bubble with three dots. */
export function drawIcon(): Buffer {
    const pixels = Buffer.alloc(size * size * 4);
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            const px = x + 0.5;
            const py = y + 0.5;
            const t = (px + py) / (2 * size);
            const background: Rgba = [lerp(79, 124, t), lerp(70, 58, t), lerp(229, 237, t), 255];
            let color: Rgba = [0, 0, 0, 0];
            color = over(color, background, coverage(roundedRect(px, py, 256, 256, 240, 240, 96)));
            const bubble = Math.min(roundedRect(px, py, 256, 232, 156, 112, 64), triangle(px, py, [[176, 320], [246, 320], [150, 408]]));
            color = over(color, [255, 255, 255, 255], coverage(bubble));
            for (const cx of [180, 256, 332])
                color = over(color, background, coverage(Math.hypot(px - cx, py - 232) - 24));
            pixels.set(color.map(Math.round), (y * size + x) * 4);
        }
    }
    return encodePng(size, size, pixels);
}

/** Fraction of the pixel inside a shape whose signed distance (negative inside) at its centre is `distance`. */
function coverage(distance: number): number {
    return Math.min(1, Math.max(0, 0.5 - distance));
}

function roundedRect(x: number, y: number, cx: number, cy: number, halfWidth: number, halfHeight: number, radius: number): number {
    const qx = Math.abs(x - cx) - (halfWidth - radius);
    const qy = Math.abs(y - cy) - (halfHeight - radius);
    return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

/** Approximate signed distance to a convex polygon given clockwise on screen: the largest distance past an edge. */
function triangle(x: number, y: number, points: Array<[number, number]>): number {
    let distance = -Infinity;
    for (let index = 0; index < points.length; index++) {
        const [ax, ay] = points[index];
        const [bx, by] = points[(index + 1) % points.length];
        const length = Math.hypot(bx - ax, by - ay);
        distance = Math.max(distance, ((x - ax) * (by - ay) - (y - ay) * (bx - ax)) / length);
    }
    return distance;
}

/** `top` over `bottom` with `amount` of top's alpha (straight, not premultiplied, alpha). */
function over(bottom: Rgba, top: Rgba, amount: number): Rgba {
    const alpha = (top[3] / 255) * amount;
    const outAlpha = alpha + (bottom[3] / 255) * (1 - alpha);
    if (outAlpha === 0) return [0, 0, 0, 0];
    const channel = (index: number) => (top[index] * alpha + bottom[index] * (bottom[3] / 255) * (1 - alpha)) / outAlpha;
    return [channel(0), channel(1), channel(2), outAlpha * 255];
}

function lerp(a: number, b: number, t: number): number {
    return a + (b - a) * t;
}

if (process.argv[1] != null && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
    await writeFile(iconPath, drawIcon());
    console.log(`icon: ${iconPath}`);
}
