/**
 * The media sources a synthesized sentence streams through, and the steps of feeding one: open it, set its
 * pipeline up with a primer, append a chunk (see AudioPlayer).
 */

/**
 * A media source a sentence streams through: Media Source Extensions' `MediaSource`, or WebKit's
 * `ManagedMediaSource` (the only one on iPhone, from iOS 17.1), which also says when it wants more data
 * (`streaming`, with `startstreaming` and `endstreaming`). TypeScript's DOM types lack the latter.
 */
export type StreamSource = MediaSource & { readonly streaming?: boolean };

export interface StreamSourceConstructor {
  new (): StreamSource;
  isTypeSupported(type: string): boolean;
}

/** Where the media source constructors live (the page's window). */
export interface MediaSourceWindow {
  readonly MediaSource?: StreamSourceConstructor;
  readonly ManagedMediaSource?: StreamSourceConstructor;
}

/**
 * The media source to stream audio of this type through: `MediaSource` where the browser has it for the
 * type, else `ManagedMediaSource` (iPhone from iOS 17.1 has only that one); none where neither plays it
 * (iPhone before iOS 17.1), and the sentence then plays once it has all arrived.
 */
export function streamSourceFor(
  type: string,
  win: MediaSourceWindow = globalThis as MediaSourceWindow,
): StreamSourceConstructor | undefined {
  return [win.MediaSource, win.ManagedMediaSource].find((Source) => Source?.isTypeSupported(type));
}

/** Resolves once the source is open (at once when it already is). */
export function opened(source: MediaSource): Promise<void> {
  if (source.readyState === 'open') return Promise.resolve();
  return new Promise((resolve) => source.addEventListener('sourceopen', () => resolve(), { once: true }));
}

/** Where the primer goes: far past any sentence, so the append window drops it. */
const PRIMER_WINDOW_START_S = 24 * 60 * 60;

/**
 * Sets the media pipeline up for the audio's format (demuxer, decoder, audio output) before its first
 * chunk, while the speech service is still synthesizing: a silent frame of that format goes in with the
 * append window set far past it, so the browser learns the format from the frame and drops the frame
 * (nothing buffered, nothing heard); the window and the timestamps are then put back, so the first chunk
 * plays from 0. In Chromium this takes ~3 ms off the time from the first audio byte to `playing`
 * (`npm run bench -- voice-turn`: 6.7–7.2 ms, was 9.6–10.2).
 */
export async function primed(buffer: SourceBuffer, frame: Uint8Array<ArrayBuffer>): Promise<void> {
  buffer.appendWindowStart = PRIMER_WINDOW_START_S;
  await appended(buffer, frame);
  buffer.appendWindowStart = 0;
  // MP3 has no timestamps of its own: the next frame would follow the dropped one, 36 ms in.
  buffer.timestampOffset = 0;
}

/** Appends a chunk; resolves once the buffer has taken it, rejects when it could not. */
export function appended(buffer: SourceBuffer, chunk: Uint8Array<ArrayBuffer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      buffer.removeEventListener('updateend', done);
      buffer.removeEventListener('error', failed);
      resolve();
    };
    const failed = () => {
      buffer.removeEventListener('updateend', done);
      buffer.removeEventListener('error', failed);
      reject(new Error('the synthesized audio could not be buffered'));
    };
    buffer.addEventListener('updateend', done);
    buffer.addEventListener('error', failed);
    buffer.appendBuffer(chunk);
  });
}
