import {encodePng} from "../../../base/node/encodePng.ts";

/** A real PNG (a diagonal gradient), so browsers can show its preview. */
export function makePng(width: number, height: number, tint: [number, number, number] = [90, 110, 255]): Buffer {
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
            const shade = (x + y) / (width + height);
            const offset = (y * width + x) * 4;
            for (let channel = 0; channel < 3; channel++) rgba[offset + channel] = Math.round(tint[channel] * (0.4 + shade * 0.6));
            rgba[offset + 3] = 255;
        }
    return encodePng(width, height, rgba);
}
