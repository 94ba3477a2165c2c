/**
 * The app's screen as the browser tests read and drive it, written once for every browser: each driver
 * (playwright-core for Chromium, puppeteer-core for Firefox) supplies these few operations, and the
 * flows below (start, type a question and wait for the answer) are the same in both.
 */
export interface AppUi {
  /** Clicks the button with this accessible name once it is enabled. */
  clickButton(name: string): Promise<void>;
  /** Fills the field with this accessible name (its label). */
  fill(label: string, text: string): Promise<void>;
  count(selector: string): Promise<number>;
  /** Waits until at least `count` elements match. */
  waitForCount(selector: string, count: number): Promise<void>;
  /** Waits until the element's text contains `text` (case and spacing aside). */
  waitForText(selector: string, text: string, options?: { readonly timeoutMs?: number }): Promise<void>;
  innerText(selector: string): Promise<string>;
}

export const STATUS_LINE = '#status-line';
export const ASTRO_MESSAGE = '.message-astro';
export const USER_MESSAGE = '.message-user';
export const COMPOSER = 'Type a message to Astro';
export const LISTENING = 'Listening...';

/** The status line's text. */
export function statusOf(ui: AppUi): Promise<string> {
  return ui.innerText(STATUS_LINE);
}

/** Waits until the status line reads `text` (the offline tutor and fakes settle in milliseconds). */
export function waitForStatus(ui: AppUi, text: string, options?: { readonly timeoutMs?: number }) {
  return ui.waitForText(STATUS_LINE, text, options);
}

/** Start a conversation and wait for the greeting to be spoken: listening. */
export async function startConversation(ui: AppUi, startLabel = 'Start Conversation', listening = LISTENING) {
  await ui.clickButton(startLabel);
  await waitForStatus(ui, listening);
}

/** Sends one typed message, without waiting for the answer. */
export async function typeMessage(ui: AppUi, text: string): Promise<void> {
  await ui.fill(COMPOSER, text);
  await ui.clickButton('Send');
}

/** Type one message and wait for Astro's answer to be spoken. */
export async function typeAndWait(ui: AppUi, text: string): Promise<void> {
  const before = await ui.count(ASTRO_MESSAGE);
  await typeMessage(ui, text);
  await ui.waitForCount(ASTRO_MESSAGE, before + 1);
  await waitForStatus(ui, LISTENING);
}
