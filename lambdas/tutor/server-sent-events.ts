/**
 * The `data` of each server-sent event in a byte stream (the WHATWG event-stream format that
 * OpenAI-compatible servers stream chat completions in): lines split across chunks and multi-byte
 * characters split across chunks are put back together; comments and other fields are skipped.
 */
export async function* serverSentData(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let data: string[] = [];
  const lines = function* (final: boolean) {
    const parts = buffer.split(/\r\n|\r|\n/);
    buffer = final ? '' : (parts.pop() ?? '');
    yield* parts;
  };
  const take = function* (line: string) {
    if (line === '') {
      if (data.length > 0) yield data.join('\n');
      data = [];
    } else if (line.startsWith('data:')) {
      data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  };
  for await (const chunk of bytes) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) yield* take(line);
  }
  buffer += decoder.decode();
  for (const line of lines(true)) yield* take(line);
  // A last event without its blank line still counts.
  yield* take('');
}

/** A fetch body's chunks as an async iterable (the DOM typings give ReadableStream no iterator). */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
