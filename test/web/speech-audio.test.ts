import { describe, expect, it } from 'vitest';
import { SpeechAudio } from '#web/speech/speech-audio';

const bytes = (...values: number[]) => new Uint8Array(values);

async function collect(audio: SpeechAudio): Promise<number[][]> {
  const chunks: number[][] = [];
  for await (const chunk of audio) chunks.push([...chunk]);
  return chunks;
}

describe('a sentence of synthesized speech as it arrives', () => {
  it('hands out the chunks in order, those that came before reading began and after, until the end', async () => {
    const audio = new SpeechAudio(4);
    audio.push(bytes(1, 2));
    const read = collect(audio);
    audio.push(new ArrayBuffer(0));
    audio.push(bytes(3).buffer);
    audio.end();
    audio.push(bytes(9));
    expect(await read).toEqual([[1, 2], [3]]);
    expect([...(await audio.whole())]).toEqual([1, 2, 3]);
    expect(audio.byteLength).toBe(3);
    expect(audio.durationMs).toBe(0.75);
  });

  it('keeps its primer apart: never a chunk, never in the whole, never in its length', async () => {
    const audio = new SpeechAudio(4, bytes(7, 7, 7, 7));
    audio.push(bytes(1, 2));
    audio.end();
    expect(await collect(audio)).toEqual([[1, 2]]);
    expect([...(await audio.whole())]).toEqual([1, 2]);
    expect(audio.durationMs).toBe(0.5);
    expect([...(audio.primer ?? [])]).toEqual([7, 7, 7, 7]);
  });

  it('throws its failure to the reader after the chunks that arrived before it', async () => {
    const audio = new SpeechAudio(4);
    const chunks: number[][] = [];
    const read = (async () => {
      for await (const chunk of audio) chunks.push([...chunk]);
    })();
    audio.push(bytes(1));
    audio.fail(new Error('the first synthesized audio did not finish within 10 ms'));
    audio.end();
    await expect(read).rejects.toThrow('did not finish within 10 ms');
    expect(chunks).toEqual([[1]]);
    await expect(audio.finished).rejects.toThrow('did not finish');
    await expect(audio.whole()).rejects.toThrow('did not finish');
  });

  it('is finished only once it has ended', async () => {
    const audio = new SpeechAudio(4);
    let finished = false;
    void audio.finished.then(() => (finished = true));
    audio.push(bytes(1));
    await Promise.resolve();
    expect(finished).toBe(false);
    audio.end();
    await audio.finished;
    expect(finished).toBe(true);
  });
});
