import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startLocalServer } from '../../../lambdas/local/server';
import { installSpeechFakes, type SpeechLog } from './speech-fakes';

/** Debian's Chromium (installed by .ci/run); nothing is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

export interface TestApp {
  readonly url: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** More Chromium switches for one test file (e.g. a fake microphone). */
  readonly chromiumArgs?: readonly string[];
}

/**
 * One browser and one local server (the real handlers, offline tutor and images, no Azure key so the
 * browser speech engine is used) per test file.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium).`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'astro-e2e-'));
  const server = await startLocalServer({
    port: 0,
    dataDir,
    env: { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline', AZURE_SPEECH_KEY: '' },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, ...(options.chromiumArgs ?? [])],
  });
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    url: server.url,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface OpenOptions {
  readonly viewport?: { width: number; height: number };
  readonly userAgent?: string;
  readonly reducedMotion?: 'reduce' | 'no-preference';
}

/** A fresh context (no shared state between tests) with the speech fakes in place. */
/**
 * Starts one test app for the calling test file (beforeAll) and closes it after (afterAll). The handle
 * reads through to the started app, so tests use it as they would the app itself.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await startTestApp(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): TestApp => {
    if (!started) throw new Error('The test app is not started yet: use it inside a test.');
    return started;
  };
  return {
    get url() {
      return current().url;
    },
    get browser() {
      return current().browser;
    },
    close: () => current().close(),
  };
}

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

type SpeechControl = 'say' | 'interim' | 'endByBrowser' | 'finishSpeaking';

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

/** The status line's text. */
export function statusOf(page: Page): Promise<string> {
  return page.locator('#status-line').innerText();
}

/** Waits until the status line reads `text` (the offline tutor and fakes settle in milliseconds). */
export async function waitForStatus(page: Page, text: string): Promise<void> {
  await page.locator('#status-line', { hasText: text }).waitFor();
}

/** Start a conversation and wait for the greeting to be spoken: listening. */
export async function startConversation(
  page: Page,
  startLabel = 'Start Conversation',
  listening = 'Listening...',
) {
  await page.getByRole('button', { name: startLabel }).click();
  await waitForStatus(page, listening);
}

/** Speak one utterance through the fake recogniser and wait for Astro's answer to be spoken. */
export async function sayAndWait(page: Page, text: string): Promise<void> {
  const before = await page.locator('.message-astro').count();
  if (!(await speech(page, 'say', text))) throw new Error('the recogniser was not running');
  await page.locator('.message-astro').nth(before).waitFor();
  await waitForStatus(page, 'Listening...');
}

/** Type one message and wait for Astro's answer to be spoken. */
export async function typeAndWait(page: Page, text: string): Promise<void> {
  const before = await page.locator('.message-astro').count();
  await page.getByLabel('Type a message to Astro').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('.message-astro').nth(before).waitFor();
  await waitForStatus(page, 'Listening...');
}
