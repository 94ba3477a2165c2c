import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Locale } from '#contract/languages';
import { MESSAGES } from '#support/ui-strings';
import type { AzureSpeechFake } from '#support/azure-speech-fake';
import { DESKTOP, useTestApp, waitForStatus, type TestApp } from './app';
import { routeAzureSpeech } from './azure-speech-route';
import { installSpeechFakes } from './speech-fakes';

// The app's Azure speech path in Chromium, with the real Speech SDK talking to the fake speech service
// (test/support/azure-speech-fake.ts) through page.routeWebSocket, under the page's real CSP. Chromium's
// fake microphone feeds real audio through the SDK's worklet; the synthesized MP3 really plays. Shared by
// the browser files of that path (azure-speech.e2e.ts, azure-speech-faults.e2e.ts), which run side by side.

/** One Chromium with a fake microphone and autoplay allowed, and the local app, for the calling file. */
export function useAzureTestApp(): TestApp {
  return useTestApp({
    chromiumArgs: [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

export const MP3_FORMAT = 'audio-16khz-32kbitrate-mono-mp3';
/** HTMLMediaElement.HAVE_METADATA (the test's Node has no DOM constants). */
export const HAVE_METADATA = 1;
/** 16 kHz 16-bit mono: what the SDK uploads each second. */
export const PCM_BYTES_PER_SECOND = 32_000;

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

export function mediaLog(page: Page): Promise<MediaEvent[]> {
  return page.evaluate(() => (window as unknown as { __media: MediaEvent[] }).__media);
}

/** The element the app last asked to play, now; null before any. */
export function mediaState(page: Page): Promise<MediaState | null> {
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

export async function endedCount(page: Page): Promise<number> {
  return (await mediaLog(page)).filter((entry) => entry.event === 'ended').length;
}

export interface AzureApp {
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
export async function openAzureApp(
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
export async function startIn(page: Page, locale: Locale = 'en-US'): Promise<void> {
  const t = MESSAGES[locale];
  await page.getByLabel('Language').selectOption(locale);
  await page.getByRole('button', { name: t.start }).click();
  await waitForStatus(page, t.listening);
}

/** The learner's sent messages (not the faded interim bubble). */
export function userMessages(page: Page): Promise<string[]> {
  return page.locator('.message-user:not(.message-interim) .bubble-text').allInnerTexts();
}

/** Says `text` through the fake service and waits for Astro's spoken answer and listening again. */
export async function sayAndHear(
  page: Page,
  fake: AzureSpeechFake,
  text: string,
  listening = 'Listening...',
) {
  const answers = await page.locator('.message-astro').count();
  const ended = await endedCount(page);
  fake.say(text);
  await page.locator('.message-user:not(.message-interim)', { hasText: text }).waitFor();
  await page.locator('.message-astro').nth(answers).waitFor();
  await expect.poll(() => endedCount(page), { timeout: 15_000 }).toBeGreaterThan(ended);
  await waitForStatus(page, listening);
}
