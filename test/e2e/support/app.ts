import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Check } from '#contract/teaching';
import * as ui from './app-ui';
import { DESKTOP, startLocalApp, usePerFile } from './local-app';
import { installSpeechFakes, type SpeechLog } from './speech-fakes';

export { DESKTOP, PHONE } from './local-app';

/**
 * Debian's Chromium headless shell (installed by test/e2e/browsers.sh); nothing is downloaded. The same
 * Blink and V8 as the full browser without its window and profile machinery: a test costs about half the
 * CPU (docs/testing.md, "How long it takes").
 */
export const CHROMIUM = '/usr/bin/chromium-headless-shell';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

export interface TestApp {
  readonly url: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** More Chromium switches for one test file (e.g. a fake microphone). */
  readonly chromiumArgs?: readonly string[];
  /** More server settings, read when the app starts (after the file's earlier beforeAll hooks). */
  readonly env?: () => Readonly<Record<string, string>>;
}

/** Stops at once, saying how to install it, when Debian's Chromium headless shell is not there. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: run 'npm run test:browsers' (it installs Debian's ` +
        'chromium-headless-shell, or says how).',
    );
  }
}

/** One Chromium and one local app (see startLocalApp) per test file. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  requireChromium();
  const local = await startLocalApp(options.env?.());
  try {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, ...(options.chromiumArgs ?? [])],
    });
    await mkdir(SCREENSHOTS, { recursive: true });
    return {
      url: local.url,
      browser,
      close: async () => {
        await browser.close();
        await local.close();
      },
    };
  } catch (error) {
    await local.close();
    throw error;
  }
}

/** Starts one test app for the calling test file and closes it after (see usePerFile). */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  return usePerFile(() => startTestApp(options));
}

export interface OpenOptions {
  readonly viewport?: { width: number; height: number };
  readonly userAgent?: string;
  readonly reducedMotion?: 'reduce' | 'no-preference';
}

/** A fresh context (no shared state between tests) with the speech fakes in place. */
export async function openApp(
  app: TestApp,
  options: OpenOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    reducedMotion: options.reducedMotion ?? 'reduce',
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
  });
  await context.addInitScript(installSpeechFakes);
  const page = await context.newPage();
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Start Conversation' }).waitFor();
  return { context, page };
}

export function speechLog(page: Page): Promise<SpeechLog> {
  return page.evaluate(() => (window as unknown as { __speech: { log: SpeechLog } }).__speech.log);
}

type SpeechControl = 'say' | 'interim' | 'endByBrowser' | 'finishSpeaking' | 'failRecognition';

/** Drives the fake recogniser / synthesis inside the page. */
export function speech(page: Page, control: SpeechControl, text = ''): Promise<boolean> {
  return page.evaluate(
    ([name, value]) => {
      const api = (window as unknown as { __speech: Record<string, (text: string) => boolean | undefined> })
        .__speech;
      return api[name]?.(value) ?? true;
    },
    [control, text] as const,
  );
}

export function holdSpeech(page: Page, hold: boolean): Promise<void> {
  return page.evaluate((value) => {
    (window as unknown as { __speech: { holdSpeech(hold: boolean): void } }).__speech.holdSpeech(value);
  }, hold);
}

/** Before Start: the browser refuses the microphone, or has no speech voices at all. */
export function setSpeechEnvironment(
  page: Page,
  environment: { readonly refuseMicrophone?: boolean; readonly voices?: boolean },
): Promise<void> {
  return page.evaluate(({ refuseMicrophone, voices }) => {
    const api = (
      window as unknown as {
        __speech: { refuseMicrophone(refuse: boolean): void; setVoices(present: boolean): void };
      }
    ).__speech;
    if (refuseMicrophone !== undefined) api.refuseMicrophone(refuseMicrophone);
    if (voices !== undefined) api.setVoices(voices);
  }, environment);
}

/** The app's screen driven through playwright-core (see app-ui.ts). */
export function playwrightUi(page: Page): ui.AppUi {
  return {
    clickButton: (name) => page.getByRole('button', { name }).click(),
    fill: (label, text) => page.getByLabel(label).fill(text),
    count: (selector) => page.locator(selector).count(),
    waitForCount: (selector, count) =>
      page
        .locator(selector)
        .nth(count - 1)
        .waitFor(),
    waitForText: (selector, text, options) =>
      page.locator(selector, { hasText: text }).waitFor({ timeout: options?.timeoutMs }),
    innerText: (selector) => page.locator(selector).innerText(),
  };
}

/** The status line's text. */
export function statusOf(page: Page): Promise<string> {
  return ui.statusOf(playwrightUi(page));
}

/** Waits until the status line reads `text` (the offline tutor and fakes settle in milliseconds). */
export function waitForStatus(page: Page, text: string): Promise<void> {
  return ui.waitForStatus(playwrightUi(page), text);
}

/** Start a conversation and wait for the greeting to be spoken: listening. */
export function startConversation(page: Page, startLabel = 'Start Conversation', listening = ui.LISTENING) {
  return ui.startConversation(playwrightUi(page), startLabel, listening);
}

/** Speak one utterance through the fake recogniser and wait for Astro's answer to be spoken. */
export async function sayAndWait(page: Page, text: string): Promise<void> {
  const before = await page.locator(ui.ASTRO_MESSAGE).count();
  if (!(await speech(page, 'say', text))) throw new Error('the recogniser was not running');
  await page.locator(ui.ASTRO_MESSAGE).nth(before).waitFor();
  await waitForStatus(page, ui.LISTENING);
}

/** Type one message and wait for Astro's answer to be spoken. */
export function typeAndWait(page: Page, text: string): Promise<void> {
  return ui.typeAndWait(playwrightUi(page), text);
}

/** The picture the offline tutor offers with a topic's lesson (lambdas/tutor/offline/knowledge/topics.json). */
export function offlinePicturePrompt(topicId: string): string {
  const file = join(process.cwd(), 'lambdas', 'tutor', 'offline', 'knowledge', 'topics.json');
  const { topics } = JSON.parse(readFileSync(file, 'utf8')) as {
    topics: { id: string; imagePrompt?: string }[];
  };
  const prompt = topics.find((topic) => topic.id === topicId)?.imagePrompt;
  if (!prompt) throw new Error(`the offline topic ${topicId} offers no picture`);
  return prompt;
}

/**
 * The offline tutor's real reply to `userMessage`, with its `done` line's `check` set as the test says (or
 * removed, for null), so each step is the one the test needs (the reply's signature covers only its text,
 * so it still holds). Messages the test does not name get the tutor's reply unchanged.
 */
export async function judgeReplies(
  page: Page,
  checks: Readonly<Record<string, Check | null>>,
): Promise<void> {
  await page.route('**/api/chat', async (route) => {
    const { userMessage } = route.request().postDataJSON() as { userMessage: string };
    const check = checks[userMessage];
    if (check === undefined) return route.continue();
    const response = await route.fetch();
    const body = (await response.text())
      .split('\n')
      .map((line) => {
        if (line.trim() === '') return line;
        const parsed = JSON.parse(line) as { type?: string };
        if (parsed.type !== 'done') return line;
        const { check: _asSent, ...done } = parsed as { check?: unknown };
        return JSON.stringify(check === null ? done : { ...done, check });
      })
      .join('\n');
    await route.fulfill({ response, body });
  });
}
