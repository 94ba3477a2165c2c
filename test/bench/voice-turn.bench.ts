/**
 * The app's own overhead in a spoken turn, in Chromium with the real Speech SDK against the fake speech
 * service (test/support/azure-speech-fake.ts): from the fake sending the final `speech.phrase` to the
 * `<audio>` element firing `playing` for the reply's first sentence, minus the chat request to its first
 * byte (the offline tutor on the local server, streamed, as the page's resource timing saw it) and minus
 * the fake's own synthesis first-byte wait. What is left is recognition → controller → SSML → synthesis
 * transfer → media source → audio element start. Median of the turns; the goal is ≤ 30 ms.
 *
 * As in use, the three parties do not share an event loop: the page's websockets reach the fake speech
 * service over real loopback TLS (Chromium resolves `*.speech.microsoft.com` to it and accepts its
 * throwaway certificate), not through Playwright's routing, whose in-page shim costs the page time on
 * every microphone frame; the fake runs in a process of its own (test/bench/support/serve-speech.ts),
 * since this one reads every frame the page sends as a DevTools event; and so does the local server, so
 * drawing the reply's picture never delays the fake's answer. Both clocks are epoch-based (`performance.timeOrigin +
 * performance.now()`) on the same machine. Prints the figures; a missed goal is reported, not failed
 * (shared CI machines).
 */
import type { Page } from 'playwright-core';
import { buildWeb, launchVoiceChromium, median, handOutSpeechTokens } from './support/browser-bench';
import { startChildServer } from './support/child-server';
import { startSpeechService } from './support/speech-service';

const TURNS = Number(process.env.BENCH_VOICE_TURNS ?? 24);
const GOAL_MS = 30;
/**
 * How long the fake speech service takes to its first audio byte, subtracted like the chat's time. The
 * service's own first byte takes longer than this for a sentence; 0 ms would be a service no learner
 * meets, and would count the screen's render of the reply (done while the service works) as a wait.
 */
const SYNTHESIS_FIRST_BYTE_MS = Number(process.env.BENCH_SYNTHESIS_FIRST_BYTE_MS ?? 100);
const QUESTIONS = [
  'Why is Mars red?',
  'What is a black hole?',
  'How far away is the Moon?',
  'Why do stars twinkle?',
  'What is a comet made of?',
  'How hot is the Sun?',
];

/**
 * Runs in the page before the app: when each media element fired `playing`, and each /api/chat request's
 * duration. Plain JavaScript text: tsx would name-wrap a TypeScript function with a helper the page lacks.
 */
const RECORD_TIMINGS = `
  const timings = { playing: [], chat: [] };
  window.__timings = timings;
  const play = HTMLMediaElement.prototype.play;
  const watched = new WeakSet();
  HTMLMediaElement.prototype.play = function () {
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener('playing', () => timings.playing.push(performance.timeOrigin + performance.now()));
    }
    return play.call(this);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.endsWith('/api/chat')) {
        timings.chat.push({ start: performance.timeOrigin + entry.startTime, firstByte: performance.timeOrigin + entry.responseStart });
      }
    }
  }).observe({ type: 'resource', buffered: true });
`;

interface PageTimings {
  readonly playing: number[];
  /** Each /api/chat request: sent, and its first byte (a streamed reply's first line can be read then). */
  readonly chat: { readonly start: number; readonly firstByte: number }[];
}

function timingsOf(page: Page): Promise<PageTimings> {
  return page.evaluate(() => (window as unknown as { __timings: PageTimings }).__timings);
}

async function main(): Promise<void> {
  buildWeb();

  const server = await startChildServer('./serve-local.ts', ['--web']);
  const speech = await startSpeechService(SYNTHESIS_FIRST_BYTE_MS);
  const browser = await launchVoiceChromium({ speechPort: speech.port });
  try {
    const context = await browser.newContext();
    await context.addInitScript({ content: RECORD_TIMINGS });
    const page = await context.newPage();
    await handOutSpeechTokens(page);
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await page.locator('#status-line', { hasText: 'Listening...' }).waitFor();
    // Recognition is up and audio flows before the first measured turn.
    while ((await speech.report()).microphoneBytes === 0) {
      await page.waitForTimeout(50);
    }

    for (let turn = 0; turn < TURNS; turn += 1) {
      const played = (await timingsOf(page)).playing.length;
      speech.say(QUESTIONS[turn % QUESTIONS.length] ?? 'Why is Mars red?');
      await page.waitForFunction(
        (count) =>
          (window as unknown as { __timings: { playing: number[] } }).__timings.playing.length > count,
        played,
        { timeout: 30_000 },
      );
      await page.locator('#status-line', { hasText: 'Listening...' }).waitFor({ timeout: 30_000 });
    }

    const { playing, chat } = await timingsOf(page);
    const { timeline } = await speech.report();
    const at = (event: 'phrase' | 'ssml' | 'first-audio') =>
      timeline.filter((entry) => entry.event === event).map((entry) => entry.at);
    const phrases = at('phrase');
    const ssml = at('ssml');
    const firstAudio = at('first-audio');
    // A reply is spoken sentence by sentence: each turn is measured on its first sentence, the first
    // chat request, SSML, audio byte and `playing` after its phrase.
    const firstAfter = (times: readonly number[], after: number) =>
      times.find((time) => time > after) ?? Number.NaN;
    const turns = phrases.map((phraseAt) => {
      const chatRequest = chat.find((request) => request.start > phraseAt) ?? {
        start: Number.NaN,
        firstByte: Number.NaN,
      };
      const ssmlAt = firstAfter(ssml, chatRequest.start);
      const audioAt = firstAfter(firstAudio, ssmlAt);
      const playingAt = firstAfter(playing, ssmlAt);
      return {
        overhead: playingAt - phraseAt - (chatRequest.firstByte - chatRequest.start) - (audioAt - ssmlAt),
        chat: chatRequest.firstByte - chatRequest.start,
        heard: chatRequest.start - phraseAt,
        toSsml: ssmlAt - chatRequest.firstByte,
        toPlaying: playingAt - audioAt,
      };
    });
    const overheads = turns.map((turn) => turn.overhead);
    const medianOf = (key: keyof (typeof turns)[number]) => median(turns.map((turn) => turn[key])).toFixed(1);
    const overhead = median(overheads);
    console.log(`voice turns measured: ${turns.length} (Chromium, real Speech SDK, fake speech service)`);
    console.log(
      `chat request to its first byte (offline tutor), median: ${medianOf('chat')} ms (subtracted)`,
    );
    console.log(
      `app overhead, final phrase → <audio> playing, median: ${overhead.toFixed(1)} ms ` +
        `(min ${Math.min(...overheads).toFixed(1)}, max ${Math.max(...overheads).toFixed(1)}); goal ≤ ${GOAL_MS} ms: ` +
        (overhead <= GOAL_MS ? 'met' : 'NOT MET'),
    );
    console.log(
      `  the fake speech service answers each sentence's first audio byte after ${SYNTHESIS_FIRST_BYTE_MS} ms ` +
        `(subtracted), over loopback TLS; it and the local server each run in a process of their own`,
    );
    console.log(
      `  of which, medians: phrase → chat request ${medianOf('heard')} ms, reply → SSML sent ${medianOf('toSsml')} ms, ` +
        `first audio byte → playing ${medianOf('toPlaying')} ms (first sentence of each reply)`,
    );
    // BENCH_VOICE_DETAIL=1: each turn's figures, to see where a slow turn spent its time.
    if (process.env.BENCH_VOICE_DETAIL)
      turns.forEach((turn, index) =>
        console.log(
          `  turn ${index + 1}: ` +
            Object.entries(turn)
              .map(([key, value]) => `${key} ${value.toFixed(1)}`)
              .join(', '),
        ),
      );
    if (overheads.length < TURNS || overheads.some((value) => !Number.isFinite(value))) process.exitCode = 1;
    await context.close();
  } finally {
    await browser.close();
    await speech.stop();
    await server.stop();
  }
}

await main();
