/**
 * One sentence's synthesized speech as it arrives from the speech service: MP3 chunks in order, then its
 * end or a failure. Playback reads it while it is still arriving, so a learner hears the first words as
 * soon as the first chunk is here instead of after the whole sentence (docs/behaviour.md §10.14).
 */
/** Bytes in an ordinary (not shared) buffer, as Blob and SourceBuffer take them. */
type Bytes = Uint8Array<ArrayBuffer>;

export class SpeechAudio implements AsyncIterable<Bytes> {
  readonly type = 'audio/mpeg';
  /** Resolves when the last chunk has arrived; rejects with the synthesis failure. */
  readonly finished: Promise<void>;
  private readonly chunks: Bytes[] = [];
  private bytes = 0;
  private outcome: 'arriving' | 'ended' | Error = 'arriving';
  private waiters: (() => void)[] = [];
  private settleFinished!: (error?: Error) => void;

  /**
   * `bytesPerMs`: the format's constant bit rate, from which the audio's length is known. `primer`: one
   * silent frame of the same format, with which a player may set up its media pipeline before the first
   * chunk arrives (AudioPlayer does, while the speech service is still synthesizing).
   */
  constructor(
    private readonly bytesPerMs: number,
    readonly primer?: Bytes,
  ) {
    this.finished = new Promise<void>((resolve, reject) => {
      this.settleFinished = (error) => (error ? reject(error) : resolve());
    });
    // Nobody may be listening (a skipped sentence): a failure is still reported through iteration.
    this.finished.catch(() => undefined);
  }

  /** Adds a chunk; ignored once the audio has ended or failed. */
  push(chunk: ArrayBuffer | Bytes): void {
    if (this.outcome !== 'arriving' || chunk.byteLength === 0) return;
    const bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
    this.chunks.push(bytes);
    this.bytes += bytes.byteLength;
    this.wake();
  }

  end(): void {
    this.settle('ended');
  }

  fail(error: Error): void {
    this.settle(error);
  }

  get byteLength(): number {
    return this.bytes;
  }

  /** How long the audio that has arrived lasts at rate 1. */
  get durationMs(): number {
    return this.bytes / this.bytesPerMs;
  }

  /** Every byte, once the audio has ended (for a player that cannot play a stream). */
  async whole(): Promise<Bytes> {
    await this.finished;
    const whole = new Uint8Array(this.bytes);
    let offset = 0;
    for (const chunk of this.chunks) {
      whole.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return whole;
  }

  /** The chunks in order as they arrive; throws the failure after the chunks that came before it. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Bytes> {
    let next = 0;
    for (;;) {
      while (next < this.chunks.length) {
        const chunk = this.chunks[next];
        next += 1;
        if (chunk) yield chunk;
      }
      if (this.outcome === 'ended') return;
      if (this.outcome instanceof Error) throw this.outcome;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private settle(outcome: 'ended' | Error): void {
    if (this.outcome !== 'arriving') return;
    this.outcome = outcome;
    this.settleFinished(outcome === 'ended' ? undefined : outcome);
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
