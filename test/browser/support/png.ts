/**
 * Reads the pixels of a PNG screenshot (8-bit RGB or RGBA, not interlaced: what Chromium
 * writes), so a test can tell a drawn view from an empty frame.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

export interface Pixels {
  readonly width: number;
  readonly height: number;
  /** RGBA, row by row. */
  readonly data: Uint8Array;
}

const SIGNATURE = '89504e470d0a1a0a';

/** The pixels of the first `maxRows` rows (all by default). */
export function readPng(path: string, maxRows = Infinity): Pixels {
  const file = readFileSync(path);
  if (file.subarray(0, 8).toString('hex') !== SIGNATURE) throw new Error(`${path} is not a PNG`);
  let width = 0, height = 0, channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < file.length; ) {
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    const body = file.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, color, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (color !== 2 && color !== 6)) throw new Error(`${path}: unsupported PNG (depth ${depth}, color type ${color}, interlace ${interlace})`);
      channels = color === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  height = Math.min(height, maxRows);
  const out = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride);
  let row = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1);
    const filter = raw[start]!;
    for (let x = 0; x < stride; x++) {
      const v = raw[start + 1 + x]!;
      const a = x >= channels ? row[x - channels]! : 0;
      const b = previous[x]!;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const c = x >= channels ? previous[x - channels]! : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      row[x] = (v + predictor) & 0xff;
    }
    const base = y * width * 4;
    for (let x = 0, i = 0; x < width; x++, i += channels) {
      const o = base + x * 4;
      out[o] = row[i]!;
      out[o + 1] = row[i + 1]!;
      out[o + 2] = row[i + 2]!;
      out[o + 3] = channels === 4 ? row[i + 3]! : 255;
    }
    [previous, row] = [row, previous];
  }
  return { width, height, data: out };
}

/** How many distinct colours a grid of samples finds, and the share of samples with the given colour. */
export function sampleColours(pixels: Pixels, rgb: readonly [number, number, number], step = 7): { distinct: number; share: number } {
  const seen = new Set<number>();
  let same = 0, total = 0;
  for (let y = 0; y < pixels.height; y += step) {
    for (let x = 0; x < pixels.width; x += step) {
      const i = (y * pixels.width + x) * 4;
      const [r, g, b] = [pixels.data[i]!, pixels.data[i + 1]!, pixels.data[i + 2]!];
      seen.add((r << 16) | (g << 8) | b);
      if (r === rgb[0] && g === rgb[1] && b === rgb[2]) same++;
      total++;
    }
  }
  return { distinct: seen.size, share: total ? same / total : 0 };
}
