import type { HTTPResponse, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { speakingDeadlineMs } from '#web/speech/browser-engine';
import {
  ASTRO_MESSAGE,
  LISTENING,
  startConversation,
  statusOf,
  typeAndWait,
  typeMessage,
  USER_MESSAGE,
  waitForStatus,
  type AppUi,
} from './support/app-ui';
import { byRole, openFirefoxApp, useFirefoxApp } from './support/firefox';

/**
 * The real app in a second real browser: Debian's Firefox ESR over WebDriver BiDi, with its own speech
 * APIs untouched unless a test says otherwise. Firefox has no SpeechRecognition, so the learner types,
 * and this machine's Firefox has no speech voices, as on many Linux desktops.
 */
const app = useFirefoxApp();

const NO_SPEECH_INPUT = "Voice input isn't available here: type your questions instead.";
const NO_VOICE = "Your browser has no voice for this language: Astro's replies are shown, not spoken.";
/**
 * Sooner than the browser engine's whole-utterance watchdog can fire for any text (10 s plus the text's
 * length): a status back at Listening within this bound came from the engine giving up at once (no
 * voice) or from its deadline for the utterance to start (docs/behaviour.md §10.16: every step of speaking
 * has a deadline).
 */
const SOONER_THAN_ANY_WATCHDOG_MS = speakingDeadlineMs('', 1) - 2_000;

function notes(page: Page): Promise<string[]> {
  return page.$$eval('ul.notes li', (items) => items.map((item) => (item as HTMLElement).innerText));
}

function texts(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(`${selector} .bubble-text`, (items) =>
    items.map((item) => (item as HTMLElement).innerText),
  );
}

/** Runs in the page before the app: records what the app hands to Firefox's own speechSynthesis. */
function recordSpeaking(): void {
  const spoken: string[] = [];
  (window as unknown as { __spoken: string[] }).__spoken = spoken;
  const synthesis = window.speechSynthesis;
  const speak = synthesis.speak.bind(synthesis);
  synthesis.speak = (utterance: SpeechSynthesisUtterance) => {
    spoken.push(utterance.text);
    speak(utterance);
  };
}

/**
 * Runs in the page before the app: a speechSynthesis that offers an English voice and accepts every
 * utterance but never starts speaking it, as Firefox ESR was seen to do (docs/behaviour.md §10.16).
 * Utterances keep their voice in a plain field, because Firefox only takes its own SpeechSynthesisVoice
 * objects.
 */
function neverStartSpeaking(): void {
  const log = { spoken: [] as string[], cancels: 0 };
  (window as unknown as { __neverStarts: typeof log }).__neverStarts = log;
  const voice = {
    name: 'Test voice',
    lang: 'en-US',
    voiceURI: 'test:en-US',
    default: true,
    localService: true,
  } as SpeechSynthesisVoice;
  class Utterance extends SpeechSynthesisUtterance {
    #voice: SpeechSynthesisVoice | null = null;
    override get voice() {
      return this.#voice;
    }
    override set voice(value: SpeechSynthesisVoice | null) {
      this.#voice = value;
    }
  }
  const synthesis = {
    speaking: false,
    pending: false,
    paused: false,
    onvoiceschanged: null,
    getVoices: () => [voice],
    speak: (utterance: SpeechSynthesisUtterance) => log.spoken.push(utterance.text),
    cancel: () => {
      log.cancels += 1;
    },
    pause: () => undefined,
    resume: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
  Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true });
  Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
}

function dialogOpen(page: Page): Promise<boolean> {
  return page.$$eval('[role="dialog"]', (dialogs) => dialogs.length > 0);
}

/**
 * A typed question, a second one while its check is open (answered, the check asked again), then the right
 * answer to the check: the third message, judged and closed, opens 'Share Your Feedback' once Astro has
 * said the verdict (docs/behaviour.md §4.18).
 */
async function threeQuestions(page: Page, ui: AppUi): Promise<void> {
  await startConversation(ui);
  await typeAndWait(ui, 'What is the Sun?');
  await typeAndWait(ui, 'What is Mars?');
  expect(await dialogOpen(page)).toBe(false);
  await typeMessage(ui, 'Nuclear fusion');
  await page.locator(byRole('dialog', 'Share Your Feedback')).wait();
}

describe('Astro in Firefox', () => {
  it('holds a typed conversation: greeting, a question, its answer and picture, then End', async () => {
    const { context, page, ui } = await openFirefoxApp(app);
    expect(await statusOf(ui)).toContain('Ready when you are');
    expect(
      await page.evaluate(() => 'SpeechRecognition' in window || 'webkitSpeechRecognition' in window),
    ).toBe(false);

    await startConversation(ui);
    expect(await ui.count(ASTRO_MESSAGE)).toBe(1);
    expect((await texts(page, ASTRO_MESSAGE))[0]).not.toBe('');
    expect(await notes(page)).toContain(NO_SPEECH_INPUT);

    await typeAndWait(ui, 'Tell me about Saturn');
    expect(await texts(page, USER_MESSAGE)).toEqual(['Tell me about Saturn']);
    expect(await texts(page, ASTRO_MESSAGE)).toHaveLength(2);
    expect((await texts(page, ASTRO_MESSAGE))[1]).toMatch(/Saturn/);
    // The offline tutor suggests a picture of Saturn; Firefox loads the sketch the server drew.
    const picture = page.locator('.picture-img:not(.picture-img-pending)');
    await picture.wait();
    await page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('.picture-img:not(.picture-img-pending)');
      return image !== null && image.complete && image.naturalWidth > 0;
    });
    expect(await page.$eval('.picture-img', (image) => image.getAttribute('alt'))).toMatch(/^Saturn/);
    expect(await page.$eval('.picture-img', (image) => image.getAttribute('src'))).toMatch(
      /^\/images\/[0-9a-f-]+\.(svg|png)$/,
    );

    await ui.clickButton('End Conversation');
    await waitForStatus(ui, 'Ready when you are');
    expect(await page.$eval('#composer-input', (input) => (input as HTMLInputElement).disabled)).toBe(true);
    expect(await texts(page, ASTRO_MESSAGE)).toHaveLength(2);
    await context.close();
  });

  it('opens the feedback modal once the third typed message is judged; rating and Submit store it and close it', async () => {
    const { context, page, ui } = await openFirefoxApp(app);
    await threeQuestions(page, ui);

    const submit = byRole('button', 'Submit');
    expect(await page.$eval(submit, (button) => (button as HTMLButtonElement).disabled)).toBe(true);
    // Focus is on the first choice of Helpfulness; the arrow keys move through the radio group.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Helpfulness: 1 of 5',
    );
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight');
    // Clarity with the mouse, on the visible star.
    const clarity = await page.$(byRole('group', 'Clarity'));
    const fifth = await clarity?.$(byRole('radio', 'Clarity: 5 of 5'));
    const star = await fifth?.evaluateHandle((radio) => radio.closest('label') as HTMLLabelElement);
    await star?.click();
    await ui.fill('Suggestion (optional)', 'More about comets, please!');

    const answered = page.waitForResponse((response: HTTPResponse) =>
      response.url().endsWith('/api/feedback'),
    );
    await ui.clickButton('Submit');
    const response = await answered;
    await page.waitForFunction(() => document.querySelector('[role="dialog"]') === null);

    expect(response.status()).toBe(201);
    const sent = JSON.parse((await response.request().fetchPostData()) ?? '{}') as Record<string, unknown>;
    expect(sent).toMatchObject({
      helpfulness: 4,
      clarity: 5,
      suggestion: 'More about comets, please!',
      language: 'en-US',
    });
    expect(
      (sent.chatHistory as { sender: string }[]).filter((message) => message.sender === 'user'),
    ).toHaveLength(3);
    // The server kept it: the same feedback again is recognised as already stored.
    const again = await fetch(`${app.url}/api/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(sent),
    });
    expect({ status: again.status, body: await again.json() }).toEqual({
      status: 200,
      body: { stored: false },
    });

    // Never again in this conversation.
    await waitForStatus(ui, LISTENING);
    await typeAndWait(ui, 'What is Saturn?');
    expect(await dialogOpen(page)).toBe(false);
    await context.close();
  });

  it('with no voice for the language, shows every reply unspoken with a quiet note, and listens at once', async () => {
    const { context, page, ui } = await openFirefoxApp(app, { beforeLoad: recordSpeaking });
    // The case under test is this machine's own Firefox: no speech voices installed.
    expect(await page.evaluate(() => speechSynthesis.getVoices().length)).toBe(0);

    await ui.clickButton('Start Conversation');
    await ui.waitForCount(ASTRO_MESSAGE, 1);
    await waitForStatus(ui, LISTENING, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });
    await typeMessage(ui, 'What is a comet?');
    await ui.waitForCount(ASTRO_MESSAGE, 2);
    await waitForStatus(ui, LISTENING, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });

    expect((await texts(page, ASTRO_MESSAGE))[1]).toMatch(/comet/i);
    // Shown, not spoken: nothing was handed to Firefox's speechSynthesis.
    expect(await page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken)).toEqual([]);
    expect(await notes(page)).toContain(NO_VOICE);
    await context.close();
  });

  it('when Firefox accepts an utterance but never starts it, gives up on it quickly and listens again', async () => {
    const { context, page, ui } = await openFirefoxApp(app, { beforeLoad: neverStartSpeaking });
    const log = () =>
      page.evaluate(
        () => (window as unknown as { __neverStarts: { spoken: string[]; cancels: number } }).__neverStarts,
      );

    await ui.clickButton('Start Conversation');
    await ui.waitForCount(ASTRO_MESSAGE, 1);
    await waitForStatus(ui, LISTENING, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });
    const greeting = await log();
    // The greeting's sentences were all queued at once; none started, so the queue was cancelled.
    expect(greeting.spoken.length).toBeGreaterThan(0);
    expect(greeting.cancels).toBeGreaterThan(0);

    // The conversation carries on: the next reply gets the same short deadline.
    await typeMessage(ui, 'What is a galaxy?');
    await ui.waitForCount(ASTRO_MESSAGE, 2);
    await waitForStatus(ui, LISTENING, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });
    expect((await log()).spoken.length).toBeGreaterThan(greeting.spoken.length);
    expect(await notes(page)).not.toContain(NO_VOICE);
    await context.close();
  });

  // Last on purpose: it covers everything the tests above made Firefox do.
  it('never tried to reach anything outside this machine', () => {
    expect(app.outsideAttempts()).toEqual([]);
  });
});
