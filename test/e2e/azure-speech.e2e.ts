import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Locale } from '#contract/languages';
import { MESSAGES } from '#support/ui-strings';
import { AzureSpeechFake } from '#support/azure-speech-fake';
import { silentMp3 } from '#support/silent-mp3';
import {
  DESKTOP,
  judgeReplies,
  speech,
  speechLog,
  useTestApp,
  waitForStatus,
  type TestApp,
} from './support/app';
import { routeAzureSpeech } from './support/azure-speech-route';
import { installSpeechFakes } from './support/speech-fakes';

// The app's Azure speech path in Chromium, with the real Speech SDK talking to the fake speech service
// (test/support/azure-speech-fake.ts) through page.routeWebSocket, under the page's real CSP. Chromium's
// fake microphone feeds real audio through the SDK's worklet; the synthesized MP3 really plays.

const app = useTestApp({
  chromiumArgs: [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ],
});

const MP3_FORMAT = 'audio-16khz-32kbitrate-mono-mp3';
/** HTMLMediaElement.HAVE_METADATA (the test's Node has no DOM constants). */
const HAVE_METADATA = 1;
/** 16 kHz 16-bit mono: what the SDK uploads each second. */
const PCM_BYTES_PER_SECOND = 32_000;

interface MediaEvent {
  readonly event: string;
  readonly rate: number;
  readonly duration: number;
  /** What the element had buffered then, in seconds: [start, end] of each range. */
  readonly buffered: [number, number][];
}

/** The state of the media element the app last asked to play, as readyState and buffered ranges. */
interface MediaState {
  readonly readyState: number;
  readonly buffered: [number, number][];
}

/**
 * Runs in the page before the app: records what every media element does (play() calls, `playing`,
 * `ended`, `error`) and with which playbackRate, duration and buffered ranges, and keeps the element last
 * asked to play. Playback itself is untouched.
 */
function recordMediaPlayback(): void {
  const log: MediaEvent[] = [];
  const page = window as unknown as { __media: MediaEvent[]; __mediaElement?: HTMLMediaElement };
  page.__media = log;
  const watched = new WeakSet<HTMLMediaElement>();
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function recordedPlay(this: HTMLMediaElement) {
    const ranges = () =>
      Array.from({ length: this.buffered.length }, (_, index): [number, number] => [
        this.buffered.start(index),
        this.buffered.end(index),
      ]);
    const record = (event: string) =>
      log.push({ event, rate: this.playbackRate, duration: this.duration, buffered: ranges() });
    page.__mediaElement = this;
    if (!watched.has(this)) {
      watched.add(this);
      for (const type of ['playing', 'ended', 'error']) this.addEventListener(type, () => record(type));
    }
    record('play');
    return play.call(this);
  };
}

/** Runs in the page: the learner (or a policy) refuses the microphone, as getUserMedia reports it. */
function denyMicrophone(): void {
  navigator.mediaDevices.getUserMedia = () =>
    Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
}

function mediaLog(page: Page): Promise<MediaEvent[]> {
  return page.evaluate(() => (window as unknown as { __media: MediaEvent[] }).__media);
}

/** The element the app last asked to play, now; null before any. */
function mediaState(page: Page): Promise<MediaState | null> {
  return page.evaluate(() => {
    const element = (window as unknown as { __mediaElement?: HTMLMediaElement }).__mediaElement;
    if (!element) return null;
    const { buffered } = element;
    return {
      readyState: element.readyState,
      buffered: Array.from({ length: buffered.length }, (_, index): [number, number] => [
        buffered.start(index),
        buffered.end(index),
      ]),
    };
  });
}

async function endedCount(page: Page): Promise<number> {
  return (await mediaLog(page)).filter((entry) => entry.event === 'ended').length;
}

interface AzureApp {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly fake: AzureSpeechFake;
  /** Tokens handed out by /api/speechToken, in order. */
  readonly tokens: string[];
  /**
   * From now on the token endpoint mints one last token lasting `lastTokenMs`, then answers 503
   * `over_budget` (the day's budget reached, docs/behaviour.md §12.19).
   */
  readonly reachBudget: (lastTokenMs: number) => void;
}

/**
 * Runs in the page around installSpeechFakes: keeps the real HTMLMediaElement.play (which the fakes
 * replace), so Azure's audio really plays while the browser's recognition and voices are the fakes'.
 */
function keepRealPlay(): void {
  const page = window as unknown as { __realPlay?: typeof HTMLMediaElement.prototype.play };
  if (page.__realPlay) HTMLMediaElement.prototype.play = page.__realPlay;
  else page.__realPlay = HTMLMediaElement.prototype.play;
}

/** The app with /api/speechToken answering fake tokens and the speech hosts answered by the fake. */
async function openAzureApp(
  testApp: TestApp,
  options: {
    tokenLifetimeMs?: number;
    fake?: AzureSpeechFake;
    denyMicrophone?: boolean;
    /** The browser's own recognition and voices are the page's fakes (test/e2e/support/speech-fakes.ts). */
    browserSpeechFakes?: boolean;
  } = {},
): Promise<AzureApp> {
  const context = await testApp.browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  if (options.browserSpeechFakes) {
    await context.addInitScript(keepRealPlay);
    await context.addInitScript(installSpeechFakes);
    await context.addInitScript(keepRealPlay);
  }
  await context.addInitScript(recordMediaPlayback);
  if (options.denyMicrophone) await context.addInitScript(denyMicrophone);
  const page = await context.newPage();
  const tokens: string[] = [];
  /** Once the budget is reached: how long the last token lasts, and whether it has been minted. */
  let budget: { lastTokenMs: number; spent: boolean } | null = null;
  const fake = await routeAzureSpeech(page, options.fake);
  await page.route('**/api/speechToken', (route) => {
    const headers = { 'Cache-Control': 'no-store' };
    if (budget?.spent) {
      return route.fulfill({
        status: 503,
        json: { error: { code: 'over_budget', message: 'The spending limit is reached.' } },
        headers,
      });
    }
    const token = `fake-token-${tokens.length + 1}`;
    tokens.push(token);
    const lifetimeMs = budget?.lastTokenMs ?? options.tokenLifetimeMs ?? 600_000;
    if (budget) budget.spent = true;
    return route.fulfill({
      json: { token, region: 'eastus', expiresAt: new Date(Date.now() + lifetimeMs).toISOString() },
      headers,
    });
  });
  await page.goto(testApp.url);
  await page.getByRole('button', { name: 'Start Conversation' }).waitFor();
  const reachBudget = (lastTokenMs: number) => void (budget = { lastTokenMs, spent: false });
  return { context, page, fake, tokens, reachBudget };
}

/** Starts in the locale and waits for the greeting to be spoken and the app to listen. */
async function startIn(page: Page, locale: Locale = 'en-US'): Promise<void> {
  const t = MESSAGES[locale];
  await page.getByLabel('Language').selectOption(locale);
  await page.getByRole('button', { name: t.start }).click();
  await waitForStatus(page, t.listening);
}

/** The learner's sent messages (not the faded interim bubble). */
function userMessages(page: Page): Promise<string[]> {
  return page.locator('.message-user:not(.message-interim) .bubble-text').allInnerTexts();
}

/** Says `text` through the fake service and waits for Astro's spoken answer and listening again. */
async function sayAndHear(page: Page, fake: AzureSpeechFake, text: string, listening = 'Listening...') {
  const answers = await page.locator('.message-astro').count();
  const ended = await endedCount(page);
  fake.say(text);
  await page.locator('.message-user:not(.message-interim)', { hasText: text }).waitFor();
  await page.locator('.message-astro').nth(answers).waitFor();
  await expect.poll(() => endedCount(page), { timeout: 15_000 }).toBeGreaterThan(ended);
  await waitForStatus(page, listening);
}

describe('the Azure speech path in Chromium against the speech service protocol', () => {
  it('holds a whole spoken turn: interim bubble, phrase, reply in the right voice, played at the chosen speed', async () => {
    const { context, page, fake } = await openAzureApp(app);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.getByLabel('Speed').selectOption('1.5');
    await startIn(page);
    // The greeting was synthesized and really played, at 1.5×.
    expect(fake.ssml[0]).toMatchObject({
      lang: 'en-US',
      voice: 'en-US-JennyNeural',
      outputFormat: MP3_FORMAT,
    });
    // Spoken sentence by sentence: each sentence's audio played to its end, one after another.
    const greeting = await mediaLog(page);
    const sentences = fake.ssml.length;
    expect(sentences).toBeGreaterThan(1);
    // (The next sentence's play() is called from the previous one's `ended`, so the log may list it first.)
    for (const event of ['play', 'ended']) {
      expect(greeting.filter((entry) => entry.event === event)).toHaveLength(sentences);
    }
    // A sentence plays while its audio arrives: when the audio comes slower than it plays (a loaded
    // machine), the element waits for more and fires `playing` again when it resumes.
    expect(greeting.filter((entry) => entry.event === 'playing').length).toBeGreaterThanOrEqual(sentences);
    expect(greeting.at(-1)?.event).toBe('ended');
    expect(greeting.every((entry) => entry.rate === 1.5)).toBe(true);
    expect(greeting.at(-1)?.duration).toBeGreaterThan(0.5);

    const [recognition] = fake.recognitionSockets();
    expect(recognition?.query).toMatchObject({ language: 'en-US', format: 'simple' });
    expect(recognition?.token).toBe('fake-token-1');
    await expect.poll(() => recognition?.audioBytes ?? 0).toBeGreaterThan(0);

    fake.hypothesize('what is a');
    await page.locator('.message-interim', { hasText: 'what is a' }).waitFor();
    await sayAndHear(page, fake, 'What is a comet?');
    expect(await userMessages(page)).toEqual(['What is a comet?']);
    expect(await page.locator('.message-interim').count()).toBe(0);
    expect(fake.ssml[sentences]).toMatchObject({ lang: 'en-US', voice: 'en-US-JennyNeural' });
    const reply = await page.locator('.message-astro .bubble-text').nth(1).innerText();
    expect(fake.ssml[sentences]?.ssml).toContain(reply.split(/[.!?]/)[0]?.slice(0, 20) ?? '');
    // One synthesis connection for the conversation, every sentence of both replies on it.
    expect(fake.synthesisSockets()).toHaveLength(1);
    expect(fake.synthesisSockets()[0]?.syntheses).toBe(fake.ssml.length);
    const media = await mediaLog(page);
    expect(media.filter((entry) => entry.event === 'ended')).toHaveLength(fake.ssml.length);
    expect(media.every((entry) => entry.rate === 1.5)).toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('ignores a phrase heard while Astro speaks (the echo guard)', async () => {
    const fake = new AzureSpeechFake();
    fake.audio = silentMp3(4000);
    const { context, page } = await openAzureApp(app, { fake });
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await waitForStatus(page, 'Speaking...');
    fake.say('Astro hearing itself');
    await expect.poll(() => fake.pendingUtterances).toBe(0);
    // The phrase arrived while the greeting was still playing.
    expect(await page.locator('#status-line').innerText()).toContain('Speaking...');
    await waitForStatus(page, 'Listening...');
    expect(await userMessages(page)).toEqual([]);
    expect(await page.locator('.message-interim').count()).toBe(0);

    fake.audio = silentMp3(300);
    await sayAndHear(page, fake, 'Tell me about Saturn');
    expect(await userMessages(page)).toEqual(['Tell me about Saturn']);
    await context.close();
  });

  it('plays a sentence while its audio is still arriving, and Skip stops it', async () => {
    const fake = new AzureSpeechFake();
    fake.audio = silentMp3(3000);
    // The greeting's first sentence: all its audio, but the service never says the sentence is complete.
    fake.scriptSynthesis({ kind: 'speak', endTurn: false });
    const { context, page } = await openAzureApp(app, { fake });
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await expect
      .poll(async () => (await mediaLog(page)).filter((entry) => entry.event === 'playing').length)
      .toBeGreaterThan(0);
    expect(fake.ssml).toHaveLength(1);
    await waitForStatus(page, 'Speaking...');
    await page.keyboard.press('Escape');
    await waitForStatus(page, 'Listening...');
    expect(await endedCount(page)).toBe(0);
    await context.close();
  });

  it("sets the media pipeline up for the audio's format while the service synthesizes, and plays the sentence from its start", async () => {
    const fake = new AzureSpeechFake();
    fake.audio = silentMp3(720);
    // The greeting's first sentence: its first audio byte comes 2 s after the SSML.
    fake.scriptSynthesis({ kind: 'speak', firstByteDelayMs: 2000 });
    const { context, page } = await openAzureApp(app, { fake });
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await expect.poll(() => fake.ssml.length).toBeGreaterThan(0);
    // Before any audio: the element already has the format's metadata, and nothing buffered (the silent
    // frame that set it up was dropped).
    await expect
      .poll(() => mediaState(page), { timeout: 1500 })
      .toEqual({ readyState: HAVE_METADATA, buffered: [] });
    expect(fake.timeline.filter((entry) => entry.event === 'first-audio')).toEqual([]);
    // The sentence then plays from 0, and what is buffered is exactly its own audio: 20 frames of 36 ms.
    await expect
      .poll(() => mediaState(page), { timeout: 5000 })
      .toEqual({ readyState: expect.any(Number), buffered: [[0, expect.closeTo(0.72, 3)]] });
    const [playing] = (await mediaLog(page)).filter((entry) => entry.event === 'playing');
    expect(playing?.buffered[0]?.[0]).toBe(0);
    await context.close();
  });

  it.each([
    ['never answers the SSML', { kind: 'silent' }],
    ['closes the socket normally after the SSML', { kind: 'close', code: 1000 }],
  ] as const)('listens again when the service %s, and speaks the next reply', async (_name, fault) => {
    const { context, page, fake } = await openAzureApp(app);
    fake.scriptSynthesis(fault);
    // The greeting is abandoned at its synthesis deadline; the conversation carries on.
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await waitForStatus(page, 'Listening...');
    expect(await endedCount(page)).toBe(0);
    const abandoned = fake.ssml.length;
    await sayAndHear(page, fake, 'Why do stars twinkle?');
    // The next reply's sentences went out on a fresh synthesizer and were heard.
    expect(fake.ssml.length).toBeGreaterThan(abandoned);
    expect(await endedCount(page)).toBeGreaterThan(0);
    expect(fake.synthesisSockets().length).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('reconnects recognition after the service closes it with 1007, with microphone audio flowing again', async () => {
    const { context, page, fake } = await openAzureApp(app);
    await startIn(page);
    fake.dropRecognition(1007);
    // The SDK's own reconnect of the dropped recogniser carries no audio; the engine's new one does.
    await expect
      .poll(
        () => fake.recognitionSockets().some((socket, index) => index > 0 && socket.audioBytes > 16_000),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    await sayAndHear(page, fake, 'Is Pluto a planet?');
    expect(await userMessages(page)).toEqual(['Is Pluto a planet?']);
    // Whatever the dropped recogniser left open is closed: one recognition socket remains.
    await expect.poll(() => fake.recognitionSockets().filter((socket) => !socket.closed).length).toBe(1);
    await context.close();
  });

  it('waits longer for the answer to a check question: 1200 ms of silence asked of the service, the default after', async () => {
    const { context, page, fake } = await openAzureApp(app);
    // "I don't know" gets the hint and the question again: the judgement asks again (docs/behaviour.md §17.2).
    await judgeReplies(page, { 'I do not know': { type: 'answer', correct: false, openQuestion: true } });
    await startIn(page);
    /** What each recognition socket asked for: its URL parameter and its speech.context segmentation. */
    const asked = () =>
      fake.recognitionSockets().map((socket) => ({
        url: socket.query.segmentationSilenceTimeoutMs,
        context: (socket.contexts[0]?.phraseDetection?.conversation as { segmentation?: unknown } | undefined)
          ?.segmentation,
      }));
    const usual = { url: undefined, context: undefined };
    const longer = { url: '1200', context: { mode: 'Custom', segmentationSilenceTimeoutMs: 1200 } };
    await expect.poll(() => fake.recognitionSockets()[0]?.contexts.length).toBeGreaterThan(0);
    expect(asked()).toEqual([usual]);

    // The offline tutor's lesson ends with its check question (docs/behaviour.md §17.5).
    await sayAndHear(page, fake, 'Tell me about the Moon', 'Take your time…');
    await expect.poll(asked).toEqual([usual, longer]);
    // The answer is heard on the retuned recogniser; the judgement (the hint and the question again) keeps
    // the question open, so nothing is rebuilt while its reply is on its way.
    await sayAndHear(page, fake, 'I do not know', 'Take your time…');
    expect(asked()).toEqual([usual, longer]);
    // A second wrong try gets the answer revealed, a judgement that closes the question: the usual wait
    // again, once Astro listens; a reply without a check after it leaves it so.
    await sayAndHear(page, fake, 'Pizza');
    expect(await page.locator('#status-line').textContent()).not.toContain('Take your time…');
    await expect.poll(asked).toEqual([usual, longer, usual]);
    await sayAndHear(page, fake, 'What is for dinner?');
    expect(asked()).toEqual([usual, longer, usual]);
    expect(await userMessages(page)).toEqual([
      'Tell me about the Moon',
      'I do not know',
      'Pizza',
      'What is for dinner?',
    ]);
    // Only the newest recogniser stays open.
    await expect.poll(() => fake.recognitionSockets().filter((socket) => !socket.closed).length).toBe(1);
    await context.close();
  });

  it.each([
    ['fr-FR', 'fr-FR-DeniseNeural', 'Qu’est-ce qu’une comète ?'],
    ['ar-SA', 'ar-SA-HamedNeural', 'ما هو المذنب؟'],
  ] as const)('listens and speaks in %s', async (locale, voice, question) => {
    const { context, page, fake } = await openAzureApp(app);
    await startIn(page, locale);
    expect(fake.recognitionSockets()[0]?.query.language).toBe(locale);
    await sayAndHear(page, fake, question, MESSAGES[locale].listening);
    expect(fake.ssml.length).toBeGreaterThanOrEqual(2);
    expect(fake.ssml.every((ssml) => ssml.lang === locale && ssml.voice === voice)).toBe(true);
    await context.close();
  });

  it('refreshes the token before it expires and opens the next socket with the new one', async () => {
    // 61 s tokens: refreshed a minute early, so about every second.
    const { context, page, fake, tokens } = await openAzureApp(app, { tokenLifetimeMs: 61_000 });
    await startIn(page);
    await expect.poll(() => tokens.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    fake.dropRecognition(1007);
    await sayAndHear(page, fake, 'What is a light year?');
    const [first, ...later] = fake.recognitionSockets();
    expect(first?.token).toBe('fake-token-1');
    expect(later.length).toBeGreaterThan(0);
    for (const socket of later) {
      expect(socket.token).not.toBe('fake-token-1');
      expect(tokens).toContain(socket.token);
    }
    await context.close();
  });

  it('opens no recognition when the microphone is refused, and still speaks replies to typed messages', async () => {
    const { context, page, fake } = await openAzureApp(app, { denyMicrophone: true });
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await waitForStatus(page, 'Listening...');
    await page.getByText('Microphone access is blocked.', { exact: false }).waitFor();
    const greeting = await endedCount(page);
    expect(greeting).toBeGreaterThan(0);
    await page.getByLabel('Type a message to Astro').fill('What is the Milky Way?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.message-user', { hasText: 'What is the Milky Way?' }).waitFor();
    await page.locator('.message-astro').nth(1).waitFor();
    await waitForStatus(page, 'Listening...');
    expect(await endedCount(page)).toBeGreaterThan(greeting);
    expect(await endedCount(page)).toBe(fake.ssml.length);
    expect(fake.recognitionSockets()).toEqual([]);
    await context.close();
  });

  it('keeps the microphone flowing after the page stalls more than 5 s into a session (real CSP)', async () => {
    const { context, page, fake } = await openAzureApp(app);
    const csp = (await page.request.get(app.url)).headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('worker-src');
    await startIn(page);
    const [recognition] = fake.recognitionSockets();
    // Past the SDK's 5 s of unthrottled upload: from here on it paces audio with a timer.
    await expect
      .poll(() => recognition?.audioBytes ?? 0, { timeout: 20_000 })
      .toBeGreaterThan(5.5 * PCM_BYTES_PER_SECOND);
    await page.evaluate(() => {
      const end = performance.now() + 300;
      while (performance.now() < end) {
        // Busy: a long render or a garbage collection on a slow phone.
      }
    });
    // Answered only once a further half second of audio has arrived after the stall.
    await sayAndHear(page, fake, 'Are you still listening?');
    expect(fake.recognitionSockets()).toHaveLength(1);
    await context.close();
  });
  it('goes on with the browser speech once tokens are refused with over_budget and the last one expires', async () => {
    // 65 s tokens: refreshed a minute early, so about every 5 s while the budget lasts.
    const { context, page, fake, reachBudget } = await openAzureApp(app, {
      tokenLifetimeMs: 65_000,
      browserSpeechFakes: true,
    });
    const browserNote = MESSAGES['en-US'].browserSpeech;
    await startIn(page);
    await sayAndHear(page, fake, 'What is a comet?');
    const azureSockets = fake.recognitionSockets().length;

    // The day's budget is reached: the next refresh gets a last 4 s token, then only over_budget.
    reachBudget(4_000);
    // Azure serves until that token expires; then the browser's speech listens, with its quiet note.
    await page.getByText(browserNote).waitFor({ timeout: 20_000 });
    await waitForStatus(page, 'Listening...');
    await expect
      .poll(async () => (await speechLog(page)).recognition.some((entry) => entry.event === 'start'))
      .toBe(true);
    const transcript = await page.locator('.message .bubble-text').allInnerTexts();
    const synthesized = fake.ssml.length;

    // The conversation goes on by voice: the browser hears the learner and speaks Astro's reply.
    expect(await speech(page, 'say', 'What is a star?')).toBe(true);
    await page.locator('.message-user:not(.message-interim)', { hasText: 'What is a star?' }).waitFor();
    await expect.poll(async () => (await speechLog(page)).utterances.length).toBeGreaterThan(0);
    await waitForStatus(page, 'Listening...');
    expect(await userMessages(page)).toEqual(['What is a comet?', 'What is a star?']);
    const after = await page.locator('.message .bubble-text').allInnerTexts();
    expect(after.slice(0, transcript.length)).toEqual(transcript);
    // Azure is left alone: recognition stopped reconnecting, and the reply was not sent to it.
    expect(fake.recognitionSockets().length).toBeLessThanOrEqual(azureSockets + 1);
    expect(fake.ssml.length).toBe(synthesized);
    expect(await page.getByText(MESSAGES['en-US'].reconnectingNote).count()).toBe(0);
    await context.close();
  });
});
