import { expect } from 'vitest';
import type { Locale } from '#contract/languages';
import type { Messages } from '#web/i18n/messages';
import { MESSAGES } from '#support/ui-strings';
import type { AppUi } from './app-ui';
import type { PageFunction } from './webdriver';
import { lessons, teenCheckEnding } from './lessons';

/**
 * The phone layout check, written once for Chromium and WebKit (docs/behaviour.md §2): the real app,
 * driven through every state of its controls row — each status, Skip or Replay, "Take your time…", stars
 * — and measured at each phone width, in English and in the language whose controls row is longest.
 * Speech is the scripted fakes (support/speech-fakes.ts), so that each state can be held while it is
 * measured; API calls are held in the page (installFetchGate) for the states that wait on them.
 */

export const PHONE_WIDTHS = [320, 390, 430] as const;
export const PHONE_HEIGHT = 844;

/** How one browser's test drives the app for this check. */
export interface LayoutStage {
  readonly ui: AppUi;
  /** Runs a self-contained function in the app's window. */
  evaluate<T>(fn: PageFunction<T>, ...args: unknown[]): Promise<T>;
  /** Makes the app's viewport this many CSS pixels wide (and PHONE_HEIGHT high). */
  setWidth(width: number): Promise<void>;
}

/** One thing wrong with the layout, for the failure message. */
export type LayoutProblem = string;

/**
 * Runs in the page: what overlaps, sticks out of the viewport, or is cut. Each visible control and text
 * is measured where it really is drawn: form controls and buttons by their border box, text by the
 * extent of its drawn text (a status line squeezed below its text overflows into its neighbour though its
 * own box does not; text only for screen readers is not drawn). Boxes nested in one another are not
 * compared. A select is cut when it is narrower than its natural width (its longest option with its arrow
 * and padding): whichever option the learner chooses then shows whole.
 */
export function measureLayout(): LayoutProblem[] {
  const BOXED = [
    '.language-field select',
    '.level-field select',
    '.speed-field select',
    '#composer-input',
    'button',
    '.contact-link',
    '.logo',
  ];
  const TEXTS = [
    '.title',
    '.tagline',
    '.byline',
    '.field-label',
    '#status-line',
    '.star-count',
    '.notes li',
    '.copyright',
  ];
  const tolerance = 0.5;
  const shown = (element: Element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    // Visually hidden (1 px, clipped) is for screen readers only; a closed dialog's controls are not drawn.
    return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 1 && box.height > 1;
  };
  const name = (element: Element) => {
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
    return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')} "${text}"`;
  };
  const measured: { element: Element; box: DOMRect }[] = [];
  for (const selector of BOXED) {
    for (const element of document.querySelectorAll(selector)) {
      if (shown(element) && !element.closest('[role="dialog"]')) {
        measured.push({ element, box: element.getBoundingClientRect() });
      }
    }
  }
  /** Where the element's drawn text is: its text nodes, those inside visually hidden parts left out. */
  const textBox = (element: Element): DOMRect | null => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let box: DOMRect | null = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !shown(parent) || (node.textContent ?? '').trim() === '') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rect = range.getBoundingClientRect();
      box = box
        ? new DOMRect(
            Math.min(box.left, rect.left),
            Math.min(box.top, rect.top),
            Math.max(box.right, rect.right) - Math.min(box.left, rect.left),
            Math.max(box.bottom, rect.bottom) - Math.min(box.top, rect.top),
          )
        : rect;
    }
    return box;
  };
  for (const selector of TEXTS) {
    for (const element of document.querySelectorAll(selector)) {
      const box = shown(element) ? textBox(element) : null;
      if (box) measured.push({ element, box });
    }
  }
  const problems: LayoutProblem[] = [];
  const width = document.documentElement.clientWidth;
  for (const { element, box } of measured) {
    if (box.left < -tolerance || box.right > width + tolerance) {
      problems.push(`${name(element)} sticks out of the ${width} px viewport: ${box.left}–${box.right}`);
    }
  }
  for (let first = 0; first < measured.length; first += 1) {
    for (let second = first + 1; second < measured.length; second += 1) {
      const a = measured[first];
      const b = measured[second];
      if (!a || !b || a.element.contains(b.element) || b.element.contains(a.element)) continue;
      const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (across > tolerance && down > tolerance) {
        const at = (box: DOMRect) =>
          `(${box.left.toFixed(1)},${box.top.toFixed(1)})–(${box.right.toFixed(1)},${box.bottom.toFixed(1)})`;
        problems.push(
          `${name(a.element)} ${at(a.box)} overlaps ${name(b.element)} ${at(b.box)} by ${across.toFixed(1)}×${down.toFixed(1)} px`,
        );
      }
    }
  }
  for (const select of document.querySelectorAll('select')) {
    if (!shown(select) || !select.parentElement) continue;
    const drawn = select.getBoundingClientRect().width;
    // Its natural width: a copy beside it (the same styles apply), out of the flow and unconstrained.
    const copy = select.cloneNode(true) as HTMLSelectElement;
    copy.style.cssText =
      'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none';
    select.parentElement.append(copy);
    const natural = copy.getBoundingClientRect().width;
    copy.remove();
    if (drawn < natural - tolerance) {
      const chosen = select.selectedOptions[0]?.textContent ?? '';
      problems.push(`the select showing "${chosen}" is cut: ${drawn.toFixed(1)} of ${natural.toFixed(1)} px`);
    }
  }
  return problems;
}

/**
 * Runs in the page: holds the calls to the API paths the test names until it lets them go, so the app
 * stays in the state that waits for them ("Getting ready...", "Thinking...").
 */
export function installFetchGate(): void {
  const held = new Map<string, (() => void)[]>();
  const closed = new Set<string>();
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const path = [...closed].find((wanted) => url.endsWith(wanted));
    if (path) await new Promise<void>((resolve) => held.set(path, [...(held.get(path) ?? []), resolve]));
    return original(input, init);
  };
  (window as unknown as { __gate: unknown }).__gate = {
    hold: (path: string) => void closed.add(path),
    release: (path: string) => {
      closed.delete(path);
      for (const resolve of held.get(path) ?? []) resolve();
      held.delete(path);
    },
  };
}

/** The language whose controls row has the most to show (status, "Take your time…", Replay, Speed). */
export function longestLanguage(): Locale {
  const row = (t: Messages) =>
    Math.max(
      `${t.listening} ${t.takeYourTime} ${t.replay} ★ 1 ${t.speed}`.length,
      `${t.speaking} ${t.skip} ★ 1 ${t.speed}`.length,
      `${t.reconnecting} ${t.replay} ★ 1 ${t.speed}`.length,
      `${t.initializing} ${t.speed}`.length,
    );
  const locales = Object.keys(MESSAGES) as Locale[];
  return locales.reduce((longest, locale) =>
    row(MESSAGES[locale]) > row(MESSAGES[longest]) ? locale : longest,
  );
}

type Speech = 'holdSpeech' | 'finishSpeaking' | 'failRecognition';

/**
 * Walks the app through every state of its controls row in `locale` and measures it at each phone width:
 * idle, getting ready, speaking with Skip, listening with Replay, reconnecting, thinking, a check question
 * open ("Take your time…"), and then each of those again with a star. Fails with every problem found,
 * named by state and width.
 */
export async function checkEveryState(stage: LayoutStage, locale: Locale): Promise<void> {
  const t = MESSAGES[locale];
  const problems: string[] = [];
  const speech = (control: Speech, value?: unknown) =>
    stage.evaluate(
      (name: string, argument: unknown) =>
        (window as unknown as { __speech: Record<string, (value: unknown) => unknown> }).__speech[name]?.(
          argument,
        ),
      control,
      value,
    );
  const gate = (action: 'hold' | 'release', path: string) =>
    stage.evaluate(
      (name: string, wanted: string) =>
        (window as unknown as { __gate: Record<string, (path: string) => void> }).__gate[name]?.(wanted),
      action,
      path,
    );
  const measure = async (state: string) => {
    for (const width of PHONE_WIDTHS) {
      await stage.setWidth(width);
      for (const problem of await stage.evaluate(measureLayout)) {
        problems.push(`${locale} at ${width} px, ${state}: ${problem}`);
      }
    }
    await stage.setWidth(PHONE_WIDTHS[1]);
  };
  const status = (text: string) => stage.ui.waitForText('#status-line', text);
  const send = async (text: string) => {
    await stage.ui.fill(t.composerLabel, text);
    await stage.ui.clickButton(t.send);
  };
  /** The reply is held while it speaks; then it has been spoken and the app listens (`after`). */
  const spoken = async (state: string, after: string) => {
    await status(t.speaking);
    await stage.ui.waitForCount('.speech-button', 1);
    await measure(`${state}: speaking, with Skip`);
    await speech('finishSpeaking');
    await status(after);
  };

  await stage.evaluate(installFetchGate);
  await stage.ui.waitForText('#status-line', t.idle);
  await measure('idle');

  await speech('holdSpeech', true);
  await gate('hold', '/api/speechToken');
  await stage.ui.clickButton(t.start);
  await status(t.initializing);
  await measure('getting ready');
  await gate('release', '/api/speechToken');
  await spoken('the greeting', t.listening);
  await measure('listening, with Replay');

  const reconnecting = async (state: string) => {
    await speech('failRecognition', 'network');
    await status(t.reconnecting);
    await measure(state);
    // The engine restarts recognition after its first backoff; the fake starts at once.
    await status(t.listening);
  };
  await reconnecting('reconnecting, with Replay');

  const { quizWords } = lessons(locale);
  await gate('hold', '/api/chat');
  await send(quizWords[0] ?? 'quiz');
  await status(t.thinking);
  await measure('thinking');
  await gate('release', '/api/chat');
  await spoken('a quiz question', t.takeYourTime);
  await measure('listening, "Take your time…", with Replay');

  const question = await stage.evaluate(
    () => [...document.querySelectorAll<HTMLElement>('.message-astro .bubble-text')].at(-1)?.innerText ?? '',
  );
  const answer = teenCheckEnding(question, locale)?.answers[0];
  expect(answer, question).toBeDefined();
  await send(answer ?? '');
  await stage.ui.waitForCount('.star-count', 1);
  await spoken('a star earned', t.takeYourTime);
  await measure('listening, "Take your time…", with Replay and a star');
  await reconnecting('reconnecting, with Replay and a star');

  // A third message while the quiz goes on (its next question open): the feedback dialog waits for the
  // quiz's score (docs/behaviour.md §4.18), so the controls row stays in view.
  await gate('hold', '/api/chat');
  await send('?');
  await status(t.thinking);
  await measure('thinking, with a star');
  await gate('release', '/api/chat');
  await spoken('an answer', t.listening);
  expect(await stage.ui.count('[role="dialog"]')).toBe(0);

  await stage.ui.clickButton(t.end);
  await status(t.idle);
  await measure('idle after a conversation');
  expect(problems).toEqual([]);
}

/** Measures the idle screen (header, selects, controls) in every language at each phone width. */
export async function checkIdleInEveryLanguage(stage: LayoutStage): Promise<void> {
  const problems: string[] = [];
  for (const locale of Object.keys(MESSAGES) as Locale[]) {
    await stage.evaluate((value: string) => {
      const select = document.querySelector<HTMLSelectElement>('.language-field select');
      if (!select) throw new Error('no language select');
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }, locale);
    await stage.ui.waitForText('#status-line', MESSAGES[locale].idle);
    for (const width of PHONE_WIDTHS) {
      await stage.setWidth(width);
      for (const problem of await stage.evaluate(measureLayout)) {
        problems.push(`${locale} at ${width} px, idle: ${problem}`);
      }
    }
  }
  expect(problems).toEqual([]);
}
