import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes public/sounds/new-order.wav, the console's new-order alert: a short two-note chime
 * (16-bit mono PCM, 22.05 kHz, 0.6 s), made here so the product ships its own sound.
 * Run with `npx tsx scripts/alertSound.ts`; the file is committed.
 */
const RATE = 22_050;
const notes = [
  { freq: 1318.5, start: 0, length: 0.35 }, // E6
  { freq: 1760.0, start: 0.16, length: 0.44 }, // A6
];
const duration = Math.max(...notes.map((n) => n.start + n.length));
const samples = new Float32Array(Math.ceil(duration * RATE));
for (const note of notes) {
  const from = Math.floor(note.start * RATE);
  const count = Math.floor(note.length * RATE);
  for (let i = 0; i < count && from + i < samples.length; i++) {
    const t = i / RATE;
    const attack = Math.min(1, t / 0.005);
    const decay = Math.exp(-t * 9);
    // a little second harmonic makes it a bell rather than a beep
    samples[from + i] += 0.45 * attack * decay * (Math.sin(2 * Math.PI * note.freq * t) + 0.25 * Math.sin(4 * Math.PI * note.freq * t));
  }
}
const pcm = Buffer.alloc(samples.length * 2);
samples.forEach((v, i) => pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, v)) * 32_767), i * 2));
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + pcm.length, 4);
header.write('WAVE', 8);
header.write('fmt ', 12);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(RATE, 24);
header.writeUInt32LE(RATE * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write('data', 36);
header.writeUInt32LE(pcm.length, 40);
const file = path.resolve('public/sounds/new-order.wav');
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, Buffer.concat([header, pcm]));
console.log(`wrote ${file} (${(44 + pcm.length).toLocaleString('en')} bytes)`);
