#!/usr/bin/env node
// Draws media/icon.png (128×128, the marketplace and Running Extensions icon): three stacked
// deployment layers and an arrow on a blue rounded square. Supersampled 4× for smooth edges.
// Run again after changing the drawing: node scripts/make-icon.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROOT } from './lib/paths.mjs';

const SIZE = 128;
const SS = 4;

const inRoundRect = (x, y, x0, y0, x1, y1, r) => {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const inTriangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const s = (px, py, qx, qy, rx, ry) => (px - rx) * (qy - ry) - (qx - rx) * (py - ry);
  const d1 = s(x, y, ax, ay, bx, by), d2 = s(x, y, bx, by, cx, cy), d3 = s(x, y, cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
};

/** The colour at a point of the 128×128 canvas: [r, g, b, a] or null for transparent. */
function paint(x, y) {
  if (!inRoundRect(x, y, 4, 4, 124, 124, 24)) return null;
  const t = y / SIZE;
  let color = [Math.round(30 + 7 * t), Math.round(58 + 41 * t), Math.round(138 + 97 * t), 255];
  const layers = [
    [30, 84, 98, 98, [255, 255, 255, 255]],
    [36, 66, 92, 78, [191, 219, 254, 255]],
    [42, 48, 86, 60, [147, 197, 253, 255]],
  ];
  for (const [x0, y0, x1, y1, fill] of layers) if (inRoundRect(x, y, x0, y0, x1, y1, 5)) color = fill;
  if (inTriangle(x, y, [64, 14], [46, 36], [82, 36]) || inRoundRect(x, y, 59, 34, 69, 44, 1)) color = [250, 204, 21, 255];
  return color;
}

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0;
  for (let x = 0; x < SIZE; x++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = paint(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
        if (!c) continue;
        for (let i = 0; i < 3; i++) sum[i] += c[i] * c[3];
        sum[3] += c[3];
      }
    }
    const o = y * (SIZE * 4 + 1) + 1 + x * 4;
    const alpha = sum[3] / (SS * SS);
    for (let i = 0; i < 3; i++) raw[o + i] = sum[3] ? Math.round(sum[i] / sum[3]) : 0;
    raw[o + 3] = Math.round(alpha);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = path.join(ROOT, 'media', 'icon.png');
fs.writeFileSync(out, png);
console.log(`wrote ${path.relative(ROOT, out)} (${png.length} bytes)`);
