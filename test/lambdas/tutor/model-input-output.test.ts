import { describe, expect, it } from 'vitest';
import { initMessage } from '#contract/languages';
import { modelTurns } from '#lambdas/tutor/conversation';
import { picturePrompt, spokenText, spokenTextStream } from '#lambdas/tutor/model-text';
import { chunksOf, serverSentData } from '#lambdas/tutor/server-sent-events';
import { initInstruction } from '#lambdas/tutor/system-prompt';

// What goes to a chat model and what comes back, as pure functions (docs/behaviour.md §13.4 and §13.6):
// the turns a model accepts, the event stream an OpenAI-compatible server sends, and the cleaning of
// what the model wrote, whole or as it streams.

async function* bytes(...chunks: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
}
const all = async (events: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const event of events) out.push(event);
  return out;
};

describe('server-sent events', () => {
  it('gives each event’s data, with or without the space after the colon, skipping comments and other fields', async () => {
    const stream = bytes(': keep-alive\n\n', 'event: message\nid: 7\ndata: {"a":1}\n\n', 'data:{"b":2}\n\n');

    expect(await all(serverSentData(stream))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('puts lines and multi-byte characters split across chunks back together', async () => {
    const star = new TextEncoder().encode('data: ★ Vega\n\n');
    const stream = bytes('da', 'ta: first', ' part\n', '\n', star.slice(0, 8), star.slice(8));

    expect(await all(serverSentData(stream))).toEqual(['first part', '★ Vega']);
  });

  it('joins the data lines of one event with a newline, and reads CRLF and CR line ends', async () => {
    const stream = bytes('data: one\r\ndata: two\r\n\r\n', 'data: three\rdata: four\r\r');

    expect(await all(serverSentData(stream))).toEqual(['one\ntwo', 'three\nfour']);
  });

  it('counts a last event that never got its blank line, and no empty event', async () => {
    expect(await all(serverSentData(bytes('data: [DONE]')))).toEqual(['[DONE]']);
    expect(await all(serverSentData(bytes('\n\n\n')))).toEqual([]);
  });

  it('reads a fetch body chunk by chunk and cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
        controller.enqueue(new TextEncoder().encode('data: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });

    for await (const event of serverSentData(chunksOf(body))) {
      expect(event).toBe('1');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cancelled).toBe(true);
  });

  it('ends when the body ends', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: only\n\n'));
        controller.close();
      },
    });

    expect(await all(serverSentData(chunksOf(body)))).toEqual(['only']);
  });
});

describe('the turns a chat model is sent', () => {
  const request = (history: { role: 'user' | 'assistant'; content: string }[], userMessage = 'Why?') => ({
    userMessage,
    language: 'en-US' as const,
    history,
  });

  it('start with the learner and alternate, merging one side’s consecutive turns with a blank line', () => {
    const turns = modelTurns(
      request([
        { role: 'user', content: ' Hi ' },
        { role: 'user', content: 'Mars?' },
        { role: 'assistant', content: ' Mars is red. ' },
      ]),
    );

    expect(turns).toEqual([
      { role: 'user', text: 'Hi\n\nMars?' },
      { role: 'assistant', text: 'Mars is red.' },
      { role: 'user', text: 'Why?' },
    ]);
  });

  it('open with the greeting instruction when the history opens with Astro, and drop blank turns', () => {
    const turns = modelTurns(
      request([
        { role: 'assistant', content: 'Hello, I am Astro!' },
        { role: 'user', content: '   ' },
        { role: 'assistant', content: 'Ask me anything.' },
      ]),
    );

    expect(turns).toEqual([
      { role: 'user', text: initInstruction('en-US') },
      { role: 'assistant', text: 'Hello, I am Astro!\n\nAsk me anything.' },
      { role: 'user', text: 'Why?' },
    ]);
  });

  it('turn the opening message into the greeting instruction, and never send nothing', () => {
    expect(modelTurns(request([], initMessage('en-US')))).toEqual([
      { role: 'user', text: initInstruction('en-US') },
    ]);
    expect(modelTurns(request([], '   '))).toEqual([{ role: 'user', text: initInstruction('en-US') }]);
  });
});

describe('cleaning what the model wrote', () => {
  it('removes thinking blocks, even unfinished ones, and reasoning tags, collapsing the spaces left', () => {
    expect(spokenText('<thinking>plan</thinking>Saturn  has\trings.<response> Yes.</response>')).toBe(
      'Saturn has rings. Yes.',
    );
    expect(spokenText('Hi. <THINK>still thinking')).toBe('Hi.');
    expect(spokenText('<answer>Line one\nLine two</answer>')).toBe('Line one\nLine two');
    // What stood between two words leaves a space, never joins them.
    expect(spokenText('Stars<thinking>plan</thinking>shine')).toBe('Stars shine');
    expect(spokenText('Stars<answer>shine</answer>')).toBe('Stars shine');
  });

  it('gives out streamed text only once it is settled, so the pieces make the whole reply', () => {
    const stream = spokenTextStream();
    const pieces = ['Saturn ', '<thi', 'nking>hmm', '</thinking>', 'has rings', '. <respo', 'nse>Yes'];

    const given = pieces.map((piece) => stream.push(piece));
    given.push(stream.finish());

    expect(given.join('')).toBe(spokenText(pieces.join('')));
    expect(given[0]).toBe('Saturn');
    // Nothing of a tag being written, or of a thinking block still open, is given out.
    expect(given[1]).toBe('');
    expect(given[2]).toBe('');
  });

  it('takes a picture prompt only when it is words, with its white space collapsed', () => {
    expect(picturePrompt('  Saturn \n and   its rings ')).toBe('Saturn and its rings');
    expect(picturePrompt(' \n ')).toBeUndefined();
    expect(picturePrompt(42)).toBeUndefined();
  });
});
