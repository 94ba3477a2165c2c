/**
 * A real MP3 stream in the format Astro asks Azure for (audio-16khz-32kbitrate-mono-mp3: MPEG-2 Layer III,
 * 16 kHz, 32 kbps, mono), built at test time with no tool: every frame is a valid header followed by
 * zeroed side information and main data, which decoders play as silence of the frame's length (576
 * samples = 36 ms). Browsers decode it, so an <audio> element really plays it and fires `ended`.
 */
const FRAME_BYTES = 144; // 72 × 32000 / 16000, no padding
const FRAME_MS = 36; // 576 samples at 16 kHz

/** MP3 bytes lasting about `durationMs` (whole frames, at least one). */
export function silentMp3(durationMs: number): Uint8Array {
  const frames = Math.max(1, Math.round(durationMs / FRAME_MS));
  const bytes = new Uint8Array(frames * FRAME_BYTES);
  for (let frame = 0; frame < frames; frame += 1) {
    // sync + MPEG-2 + Layer III + no CRC | bitrate 32 kbps + 16 kHz | mono
    bytes.set([0xff, 0xf3, 0x48, 0xc0], frame * FRAME_BYTES);
  }
  return bytes;
}

/** How long silentMp3(durationMs) really lasts, in milliseconds. */
export function silentMp3DurationMs(bytes: Uint8Array): number {
  return (bytes.byteLength / FRAME_BYTES) * FRAME_MS;
}
