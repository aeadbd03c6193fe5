import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { luhnOk } from '@videomote/contract/personnummer';

/**
 * A small Y4M clip for Chromium's `--use-file-for-fake-video-capture`, made in code (no downloads): a bright bar
 * that moves across a grey frame, so every frame differs and decoding is visible. Small and slow on purpose: a test
 * with many publishers in one browser then spends its CPU on the call, not on encoding 720p test patterns.
 */
export function movingBarClip(options: { width?: number; height?: number; fps?: number; frames?: number } = {}): string {
  const { width: w = 192, height: h = 108, fps = 10, frames = 8 } = options;
  const chroma = Buffer.alloc((w / 2) * (h / 2), 128);
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${w} H${h} F${fps}:1 Ip A1:1 C420jpeg\n`)];
  const barWidth = Math.max(2, Math.floor(w / frames));
  for (let f = 0; f < frames; f++) {
    const luma = Buffer.alloc(w * h, 90);
    for (let row = 0; row < h; row++) luma.fill(230, row * w + f * barWidth, row * w + Math.min(w, (f + 1) * barWidth));
    parts.push(Buffer.from('FRAME\n'), luma, chroma, chroma);
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vm-bar-')), 'bar.y4m');
  fs.writeFileSync(file, Buffer.concat(parts));
  return file;
}

/**
 * A valid personnummer (Luhn, real date, not a coordination number) for the n-th made-up test person (n < 700), in
 * the 12-digit form the server stores (fixtures hash what they are given).
 */
export function testPin(n: number): string {
  const base = `850310${String(200 + n).padStart(3, '0')}`;
  for (let d = 0; d < 10; d++) if (luhnOk(base + d)) return `19${base}${d}`;
  throw new Error('unreachable: one check digit always fits');
}
