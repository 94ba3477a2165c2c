/**
 * How soon a learner hears a streamed reply (docs/behaviour.md §10.9, speaking is a pipeline), in Chromium
 * against the local server with an OpenAI-compatible model that streams (test/bench/support/paced-model.ts:
 * first token after 300 ms, then 40 tokens/s) a 4-sentence reply whose first sentence is short, as a
 * tutor's is. Both speech engines:
 * - Azure: the real Speech SDK against the fake speech service (test/support/azure-speech-fake.ts, routed
 *   with page.routeWebSocket), first synthesized byte 150 ms after each sentence's SSML, then a real MP3
 *   as long as the sentence spoken at 15 characters a second;
 * - browser: no speech token (the server answers 503), recognition by the scripted SpeechRecognition of
 *   test/e2e/support/speech-fakes.ts, and a `speechSynthesis` that readies each utterance 150 ms after
 *   `speak()` and "speaks" it at 15 characters a second, one after another, firing start and end.
 *
 * From the final recognised phrase: the first reply audio starting, and the model's last token. Their
 * ratio (goal ≤ 0.35); the app's own overhead, first audio − when the model had completed the first
 * sentence − the synthesis first byte (goal ≤ 30 ms); and between sentences, the next one's start − the
 * previous one's end (goal: no audible gap, i.e. every next sentence ready before the previous one ends,
 * printed with its own verdict beside the worst handoff against 50 ms). Medians over the turns. Clocks
 * are epoch-based in page and Node alike.
 *
 * The reply's long sentence is its last, and each turn is skipped (Escape) once that sentence starts, when
 * every figure is known: the whole file then runs in about three minutes. A missed goal is printed, not
 * failed (shared CI machines); a turn that could not be measured fails the run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startLocalServer } from '#lambdas/local/server';
import { routeAzureSpeech } from '../e2e/support/azure-speech-route';
import { installSpeechFakes } from '../e2e/support/speech-fakes';
import { AzureSpeechFake, type SynthesisScript, type TimelineEntry } from '#support/azure-speech-fake';
import { silentMp3 } from '#support/silent-mp3';
import {
  buildWeb,
  launchVoiceChromium,
  median,
  routedWebSocketRoundTrip,
  handOutSpeechTokens,
} from './support/browser-bench';
import { sentencesOf } from '#web/conversation/sentences';
import { startPacedModel, type PacedAnswer } from './support/paced-model';

const TURNS = Number(process.env.BENCH_STREAM_TURNS ?? 8);
const FIRST_TOKEN_MS = 300;
const TOKENS_PER_SECOND = 40;
const SYNTHESIS_FIRST_BYTE_MS = 150;
const CHARS_PER_SECOND = 15;
const RATIO_GOAL = 0.35;
const OVERHEAD_GOAL_MS = 30;
/** A synthesized sentence ends with its own pause; a handoff shorter than this adds nothing one hears. */
const AUDIBLE_GAP_MS = 50;
const QUESTION = 'Why is Mars red?';
const GREETING = 'Hi, I am Astro!';
/** 82 tokens, four sentences: 15, 69, 60 and 272 characters. */
const REPLY =
  'Great question! Mars looks red because its dust is full of iron oxide, which is rust. Long ago, water ' +
  'and air slowly rusted the iron in its rocks. Strong winds then spread that fine red dust over the whole ' +
  'planet, so the ground, the hills and even the sky look orange by day, while the sunsets there glow a ' +
  'cold blue, just the opposite of ours on Earth, so what would you like to find out next about Mars and ' +
  'its moons?';

/** Tokens as a model sends them: words with their leading space. */
const tokensOf = (text: string) => text.split(/(?= )/);
const REPLY_TOKENS = tokensOf(REPLY);
const SENTENCES = sentencesOf(REPLY, 'en-US');
/** The token with which the model has written the whole first sentence. */
const FIRST_SENTENCE_TOKEN = REPLY_TOKENS.findIndex(
  (_token, index) =>
    REPLY_TOKENS.slice(0, index + 1)
      .join('')
      .trim().length >= (SENTENCES[0] ?? '').length,
);
const spokenMs = (text: string) => (text.length / CHARS_PER_SECOND) * 1000;

/**
 * Runs in the page before the app: when each media element fired `playing` and `ended` (the Azure
 * engine's one audio element), and the browser-engine fake's utterances (ready, start, end). Plain
 * JavaScript text: tsx would name-wrap a TypeScript function with a helper the page lacks.
 */
const RECORD_TIMINGS = `
  const timings = { playing: [], ended: [], ready: [], starts: [], ends: [], appends: [] };
  window.__timings = timings;
  const clock = () => performance.timeOrigin + performance.now();
  const play = HTMLMediaElement.prototype.play;
  const watched = new WeakSet();
  HTMLMediaElement.prototype.play = function () {
    if (!watched.has(this)) {
      watched.add(this);
      // A sentence starts once: a sentence still arriving may wait for audio and fire playing again.
      let started = false;
      this.addEventListener('loadstart', () => (started = false));
      this.addEventListener('playing', () => {
        if (!started) timings.playing.push(clock());
        started = true;
      });
      this.addEventListener('ended', () => timings.ended.push(clock()));
    }
    return play.call(this);
  };
  // When a sentence's first audio reached the media source (the Azure engine plays while it arrives).
  if (typeof SourceBuffer !== 'undefined') {
    const append = SourceBuffer.prototype.appendBuffer;
    const seen = new WeakSet();
    SourceBuffer.prototype.appendBuffer = function (data) {
      // The silent frame that sets the pipeline up goes in outside the append window: not audio.
      if (!seen.has(this) && this.appendWindowStart === 0) {
        seen.add(this);
        timings.appends.push(clock());
      }
      return append.call(this, data);
    };
  }
`;

/** esbuild's keep-names helper, which tsx writes into installSpeechFakes' source; the page lacks it. */
const NAME_HELPER = 'window.__name = (target) => target;';

/**
 * Replaces the speech fakes' `speechSynthesis` (after installSpeechFakes, whose voices it keeps) with a
 * paced one: each utterance is ready ${SYNTHESIS_FIRST_BYTE_MS} ms after `speak()` (prepared while the one
 * before it speaks, as the pipeline expects) and speaks for its length at ${CHARS_PER_SECOND} characters
 * a second × its rate, in order.
 */
const PACED_SYNTHESIS = `
  const timings = window.__timings;
  const clock = () => performance.timeOrigin + performance.now();
  const voices = window.speechSynthesis.getVoices();
  const queue = [];
  let current = null;
  let timer;
  const synthesis = {
    speaking: false, pending: false, paused: false, onvoiceschanged: null,
    getVoices: () => voices,
    speak(utterance) {
      const readyAt = clock() + ${SYNTHESIS_FIRST_BYTE_MS};
      timings.ready.push(readyAt);
      queue.push({ utterance, readyAt });
      synthesis.speaking = true;
      if (!current) next();
    },
    cancel() {
      clearTimeout(timer);
      const dropped = [current, ...queue.splice(0)].filter(Boolean);
      current = null;
      synthesis.speaking = false;
      for (const entry of dropped) {
        entry.utterance.dispatchEvent(Object.assign(new Event('error'), { error: 'canceled' }));
      }
    },
    pause() {}, resume() {}, addEventListener() {}, removeEventListener() {},
  };
  function next() {
    current = queue.shift() ?? null;
    synthesis.speaking = current !== null;
    const entry = current;
    if (!entry) return;
    timer = setTimeout(() => {
      if (current !== entry) return;
      timings.starts.push(clock());
      entry.utterance.dispatchEvent(new Event('start'));
      const ms = (entry.utterance.text.length / (${CHARS_PER_SECOND} * (entry.utterance.rate || 1))) * 1000;
      timer = setTimeout(() => {
        if (current !== entry) return;
        timings.ends.push(clock());
        entry.utterance.dispatchEvent(new Event('end'));
        next();
      }, ms);
    }, Math.max(0, entry.readyAt - clock()));
  }
  Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true });
`;

interface PageTimings {
  readonly playing: number[];
  readonly ended: number[];
  readonly ready: number[];
  readonly starts: number[];
  readonly ends: number[];
  /** Azure: when each sentence's first audio was appended to its media source. */
  readonly appends: number[];
}

function timingsOf(page: Page): Promise<PageTimings> {
  return page.evaluate(() => (window as unknown as { __timings: PageTimings }).__timings);
}

/** The spoken text of an SSML document (the fake's MP3 is as long as it). */
function textOfSsml(ssml: string): string {
  return ssml
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|amp|quot|apos);/g, (_entity, name: string) =>
      name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'amp' ? '&' : name === 'quot' ? '"' : "'",
    )
    .trim();
}

/**
 * The fake speech service answering every sentence after the synthesis first-byte delay, with an MP3 as
 * long as that sentence spoken (`audio` is read right after each SSML document is recorded).
 */
class PacedSpeechFake extends AzureSpeechFake {
  constructor() {
    super();
    Object.defineProperty(this, 'audio', {
      get: () => silentMp3(spokenMs(textOfSsml(this.ssml.at(-1)?.ssml ?? ''))),
      set: () => undefined,
    });
  }

  override nextSynthesis(): SynthesisScript {
    return { kind: 'speak', firstByteDelayMs: SYNTHESIS_FIRST_BYTE_MS };
  }
}

/** What one turn measured, in ms. */
interface Turn {
  /** Final phrase → first reply audio starting. */
  readonly firstAudio: number;
  /** Final phrase → the model's last token sent. */
  readonly lastToken: number;
  /** Final phrase → the model's token completing the first sentence. */
  readonly firstSentence: number;
  readonly overhead: number;
  /** The longest silence between two sentences (next start − previous end). */
  readonly worstGap: number;
  /** The smallest lead of a next sentence's readiness over the previous one's end (< 0: it was late). */
  readonly closestReady: number;
  /** Azure only: the first sentence complete at the model → its SSML at the service; first byte → playing. */
  readonly toSsml?: number;
  readonly firstByteToPlaying?: number;
  /** Azure only: first byte sent → the first chunk appended to the sentence's media source. */
  readonly firstByteToAppend?: number;
}

function turnFigures(
  phraseAt: number,
  answer: PacedAnswer,
  starts: readonly number[],
  ends: readonly number[],
  ready: readonly number[],
): Omit<Turn, 'toSsml' | 'firstByteToPlaying' | 'firstByteToAppend'> {
  const sentenceDone = answer.sentAt[FIRST_SENTENCE_TOKEN] ?? Number.NaN;
  const firstAudio = (starts[0] ?? Number.NaN) - phraseAt;
  const gaps = SENTENCES.slice(1).map(
    (_sentence, index) => (starts[index + 1] ?? Number.NaN) - (ends[index] ?? Number.NaN),
  );
  const leads = SENTENCES.slice(1).map(
    (_sentence, index) => (ends[index] ?? Number.NaN) - (ready[index + 1] ?? Number.NaN),
  );
  return {
    firstAudio,
    lastToken: (answer.sentAt.at(-1) ?? Number.NaN) - phraseAt,
    firstSentence: sentenceDone - phraseAt,
    overhead: firstAudio - (sentenceDone - phraseAt) - SYNTHESIS_FIRST_BYTE_MS,
    worstGap: Math.max(...gaps),
    closestReady: Math.min(...leads),
  };
}

/** Waits for the status line to read Listening (the reply finished or was skipped). */
const listening = (page: Page) =>
  page.locator('#status-line', { hasText: 'Listening...' }).waitFor({ timeout: 30_000 });

/**
 * Skips the rest of the reply (Escape, as a learner would); the feedback dialog that opens after the third
 * question (docs/behaviour.md §2.17) has the keyboard, so it is dismissed first.
 */
async function skipRest(page: Page): Promise<void> {
  if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await listening(page);
}

/** Waits until `key` of the page's timings has `count` entries or more. */
async function timingsReach(page: Page, key: keyof PageTimings, count: number): Promise<void> {
  await page.waitForFunction(
    ([name, expected]) =>
      ((window as unknown as { __timings: Record<string, number[]> }).__timings[name]?.length ?? 0) >=
      expected,
    [key, count] as const,
    { timeout: 30_000 },
  );
}

async function azureTurns(
  browser: Browser,
  url: string,
  answers: readonly PacedAnswer[],
): Promise<{ turns: Turn[]; roundTrip: number }> {
  const context = await browser.newContext();
  try {
    await context.addInitScript({ content: RECORD_TIMINGS });
    const page = await context.newPage();
    await handOutSpeechTokens(page);
    const fake = await routeAzureSpeech(page, new PacedSpeechFake());
    await page.goto(url);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await timingsReach(page, 'playing', 1);
    await listening(page);
    // Recognition is up and audio flows before the first measured turn.
    while (!fake.recognitionSockets().some((socket) => socket.audioBytes > 0)) await page.waitForTimeout(50);

    const turns: Turn[] = [];
    for (let turn = 0; turn < TURNS; turn += 1) {
      const before = await timingsOf(page);
      const timelineMark = fake.timeline.length;
      const answerMark = answers.length;
      fake.say(QUESTION);
      await timingsReach(page, 'playing', before.playing.length + SENTENCES.length);
      const after = await timingsOf(page);
      await skipRest(page);
      const timeline = fake.timeline.slice(timelineMark);
      const at = (event: TimelineEntry['event']) =>
        timeline.filter((entry) => entry.event === event).map((entry) => entry.at);
      const answer = answers[answerMark];
      const phraseAt = at('phrase')[0];
      if (!answer || phraseAt === undefined) throw new Error(`turn ${turn}: no model answer or no phrase`);
      const playing = after.playing.slice(before.playing.length);
      const firstAudioSent = at('first-audio');
      const figures = turnFigures(
        phraseAt,
        answer,
        playing,
        after.ended.slice(before.ended.length),
        // A sentence's whole MP3 leaves the fake service at its first byte.
        firstAudioSent,
      );
      turns.push({
        ...figures,
        toSsml: (at('ssml')[0] ?? Number.NaN) - (answer.sentAt[FIRST_SENTENCE_TOKEN] ?? Number.NaN),
        firstByteToPlaying: (playing[0] ?? Number.NaN) - (firstAudioSent[0] ?? Number.NaN),
        firstByteToAppend:
          (after.appends[before.appends.length] ?? Number.NaN) - (firstAudioSent[0] ?? Number.NaN),
      });
    }
    return { turns, roundTrip: await routedWebSocketRoundTrip(page) };
  } finally {
    await context.close();
  }
}

async function browserTurns(browser: Browser, url: string, answers: readonly PacedAnswer[]): Promise<Turn[]> {
  const context = await browser.newContext();
  try {
    await context.addInitScript({ content: RECORD_TIMINGS });
    await context.addInitScript({ content: NAME_HELPER });
    await context.addInitScript(installSpeechFakes);
    await context.addInitScript({ content: PACED_SYNTHESIS });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await timingsReach(page, 'starts', 1);
    await listening(page);

    const turns: Turn[] = [];
    for (let turn = 0; turn < TURNS; turn += 1) {
      await page.waitForFunction(
        () => (window as unknown as { __speech: { isListening(): boolean } }).__speech.isListening(),
        undefined,
        { timeout: 30_000 },
      );
      const before = await timingsOf(page);
      const answerMark = answers.length;
      const phraseAt = await page.evaluate((question) => {
        const at = performance.timeOrigin + performance.now();
        const heard = (window as unknown as { __speech: { say(text: string): boolean } }).__speech.say(
          question,
        );
        return heard ? at : Number.NaN;
      }, QUESTION);
      await timingsReach(page, 'starts', before.starts.length + SENTENCES.length);
      const after = await timingsOf(page);
      await skipRest(page);
      const answer = answers[answerMark];
      if (!answer || Number.isNaN(phraseAt)) throw new Error(`turn ${turn}: not heard, or no model answer`);
      turns.push(
        turnFigures(
          phraseAt,
          answer,
          after.starts.slice(before.starts.length),
          after.ends.slice(before.ends.length),
          after.ready.slice(before.ready.length),
        ),
      );
    }
    return turns;
  } finally {
    await context.close();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');

/** Prints one engine's figures; returns whether every turn was measured. */
function report(
  title: string,
  turns: readonly Turn[],
  extra: (medianOf: (key: keyof Turn) => number) => string[],
): boolean {
  const medianOf = (key: keyof Turn) => median(turns.map((turn) => turn[key] ?? Number.NaN));
  const firstAudio = medianOf('firstAudio');
  const lastToken = medianOf('lastToken');
  const ratio = firstAudio / lastToken;
  const overhead = medianOf('overhead');
  const worstGap = Math.max(...turns.map((turn) => turn.worstGap));
  const closestReady = Math.min(...turns.map((turn) => turn.closestReady));
  const overheads = turns.map((turn) => turn.overhead);
  console.log(`${title}: ${turns.length} turns, medians`);
  console.log(`  first audio, final phrase → first reply audio starting: ${ms(firstAudio)}`);
  console.log(`  last token, final phrase → the model's last token sent: ${ms(lastToken)}`);
  console.log(
    `  ratio first audio / last token: ${ratio.toFixed(3)}; goal ≤ ${RATIO_GOAL}: ${verdict(ratio <= RATIO_GOAL)}`,
  );
  console.log(
    `  app overhead, first audio − first sentence complete at the model (${ms(medianOf('firstSentence'))}) − ` +
      `${SYNTHESIS_FIRST_BYTE_MS} ms synthesis first byte: ${ms(overhead)} (min ${ms(Math.min(...overheads))}, ` +
      `max ${ms(Math.max(...overheads))}); goal ≤ ${OVERHEAD_GOAL_MS} ms: ${verdict(overhead <= OVERHEAD_GOAL_MS)}`,
  );
  for (const line of extra(medianOf)) console.log(`    ${line}`);
  console.log(
    `  gaps between sentences, goal no audible gap: each next sentence ready before the one before ends ` +
      `(closest lead over all turns ${ms(closestReady)}): ${verdict(closestReady > 0)}; ` +
      `the handoff, next start − previous end, worst over all turns ${ms(worstGap)} (median of each ` +
      `turn's worst ${ms(medianOf('worstGap'))}), ≤ ${AUDIBLE_GAP_MS} ms: ${verdict(worstGap <= AUDIBLE_GAP_MS)}`,
  );
  return (
    turns.length === TURNS &&
    turns.every((turn) => Object.values(turn).every((value) => Number.isFinite(value)))
  );
}

async function main(): Promise<void> {
  if (SENTENCES.length !== 4 || FIRST_SENTENCE_TOKEN < 0)
    throw new Error('the bench reply must be 4 sentences');
  buildWeb();

  const model = await startPacedModel({
    firstTokenMs: FIRST_TOKEN_MS,
    tokensPerSecond: TOKENS_PER_SECOND,
    // The greeting's request is the system prompt and the init instruction alone.
    tokensFor: (messages) => tokensOf(messages.length <= 2 ? GREETING : REPLY),
  });
  const dataDir = await mkdtemp(join(tmpdir(), 'astro-bench-stream-'));
  const server = await startLocalServer({
    port: 0,
    dataDir,
    env: {
      ASTRO_MODEL: 'openai',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'paced-model',
      ASTRO_IMAGE_MODEL: 'offline',
      AZURE_SPEECH_KEY: '',
      SPEECH_SECRET_ID: '',
    },
  });
  const browser = await launchVoiceChromium();
  try {
    console.log(
      `streamed replies: model first token ${FIRST_TOKEN_MS} ms then ${TOKENS_PER_SECOND} tokens/s, ` +
        `${REPLY_TOKENS.length} tokens in ${SENTENCES.length} sentences (the first "${SENTENCES[0]}"); ` +
        `synthesis first byte ${SYNTHESIS_FIRST_BYTE_MS} ms, speech ${CHARS_PER_SECOND} characters/s`,
    );
    const azure = await azureTurns(browser, server.url, model.answers);
    const azureMeasured = report(
      'Azure engine (real Speech SDK, fake speech service)',
      azure.turns,
      (medianOf) => [
        `of which: the first sentence's last token sent → its SSML at the service ${ms(medianOf('toSsml'))}, ` +
          `first audio byte sent → playing ${ms(medianOf('firstByteToPlaying'))} (of which → first ` +
          `chunk in the media source ${ms(medianOf('firstByteToAppend'))})`,
        `the test harness's share: a websocket round trip through page.routeWebSocket, median ` +
          `${ms(azure.roundTrip)} (the SSML out and the audio in each cross it once)`,
      ],
    );
    const browserEngine = await browserTurns(browser, server.url, model.answers);
    const browserMeasured = report(
      'Browser engine (fake speechSynthesis: 150 ms to ready each utterance, 15 characters/s)',
      browserEngine,
      () => [],
    );
    if (!azureMeasured || !browserMeasured) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.close();
    await model.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
