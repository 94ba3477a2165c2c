import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES, STAR_MESSAGES } from '#support/ui-strings';
import { silentMp3 } from '#support/silent-mp3';
import { pluralOf } from '#web/i18n/star-messages';
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
import { teenCheckEnding } from './support/lessons';
import { installSpeechFakes } from './support/speech-fakes';
import { openWebKitApp, useWebKitApp, type WebKitApp } from './support/webkit';
import type { ElementReference } from './support/webdriver';

/**
 * The real app in Safari's engine: Debian's WebKitGTK (MiniBrowser) over W3C WebDriver, with its own
 * speech APIs: no SpeechRecognition, so the learner types, and a real speechSynthesis with the Flite
 * voices Debian's WebKitGTK brings (English only), which really synthesizes each sentence (to no sound
 * card) and fires its events as it plays.
 */
const app = useWebKitApp();
const t = MESSAGES['en-US'];

/**
 * Sooner than the browser engine's whole-utterance deadline can fire for any sentence (10 s plus its
 * length): a status back at Listening within this bound was not the engine giving up on a stalled
 * utterance (docs/behaviour.md §10.16).
 */
const SOONER_THAN_ANY_WATCHDOG_MS = speakingDeadlineMs('', 1) - 2_000;

interface Spoken {
  readonly text: string;
  /** The utterance's events, in order: start, end, error:<code>. */
  readonly events: string[];
}

/**
 * Runs in the page once it has loaded, before Start: records each utterance the app hands to WebKit's own
 * speechSynthesis and what WebKit did with it, and each cancel(). WebKit still speaks every utterance
 * itself. The prototype's methods are wrapped, not the object's: WebKit may collect the `speechSynthesis`
 * wrapper object between here and Start and make a new one without anything set on the old.
 */
function recordSpeaking(): void {
  const log = { spoken: [] as Spoken[], cancels: 0 };
  (window as unknown as { __speaking: typeof log }).__speaking = log;
  const { speak, cancel } = SpeechSynthesis.prototype;
  SpeechSynthesis.prototype.speak = function (this: SpeechSynthesis, utterance: SpeechSynthesisUtterance) {
    const spoken: Spoken = { text: utterance.text, events: [] };
    log.spoken.push(spoken);
    utterance.addEventListener('start', () => spoken.events.push('start'));
    utterance.addEventListener('end', () => spoken.events.push('end'));
    utterance.addEventListener('error', (event) => spoken.events.push(`error:${event.error}`));
    speak.call(this, utterance);
  };
  SpeechSynthesis.prototype.cancel = function (this: SpeechSynthesis) {
    log.cancels += 1;
    cancel.call(this);
  };
}

function speakingLog(webkit: WebKitApp): Promise<{ spoken: Spoken[]; cancels: number }> {
  return webkit.session.evaluate(
    () => (window as unknown as { __speaking: { spoken: Spoken[]; cancels: number } }).__speaking,
  );
}

function texts(webkit: WebKitApp, selector: string): Promise<string[]> {
  return webkit.session.evaluate(
    (wanted: string) =>
      [...document.querySelectorAll<HTMLElement>(`${wanted} .bubble-text`)].map((item) => item.innerText),
    selector,
  );
}

function notes(webkit: WebKitApp): Promise<string[]> {
  return webkit.session.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('ul.notes li')].map((item) => item.innerText),
  );
}

/** Picks an option of the select labelled `label` as a learner does: a change the app hears. */
function choose(webkit: WebKitApp, label: string, value: string): Promise<void> {
  return webkit.session.evaluate(
    (name: string, wanted: string) => {
      const field = [...document.querySelectorAll('label')].find((element) =>
        (element.textContent ?? '').includes(name),
      )?.control;
      if (!(field instanceof HTMLSelectElement)) throw new Error(`no select labelled ${name}`);
      field.value = wanted;
      field.dispatchEvent(new Event('change', { bubbles: true }));
    },
    label,
    value,
  );
}

/** Records every call the page makes to /api/feedback: what it sent and the status it got. */
function recordFeedback(): void {
  const sent: { body: string; status: number }[] = [];
  (window as unknown as { __feedback: typeof sent }).__feedback = sent;
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await original(input, init);
    if (String(input).endsWith('/api/feedback')) {
      sent.push({ body: typeof init?.body === 'string' ? init.body : '', status: response.status });
    }
    return response;
  };
}

/** Clicks the visible star (the radio's label) named `name` in the rating group `legend`. */
async function rate(webkit: WebKitApp, legend: string, name: string): Promise<void> {
  const star = await webkit.session.evaluate(
    (group: string, wanted: string) => {
      const fieldset = [...document.querySelectorAll('fieldset')].find(
        (element) => element.querySelector('legend')?.textContent === group,
      );
      const radio = [...(fieldset?.querySelectorAll('input[type="radio"]') ?? [])].find(
        (input) => input.getAttribute('aria-label') === wanted,
      );
      const label = radio?.closest('label');
      if (!label) throw new Error(`no star "${wanted}" in ${group}`);
      return label;
    },
    legend,
    name,
  );
  await webkit.session.click(star as unknown as ElementReference);
}

/** Types a message and waits for Astro's answer and the status line to read `status`. */
async function ask(ui: AppUi, text: string, status: string): Promise<void> {
  const before = await ui.count(ASTRO_MESSAGE);
  await typeMessage(ui, text);
  await ui.waitForCount(ASTRO_MESSAGE, before + 1);
  await waitForStatus(ui, status);
}

/**
 * The app with WebKit's speech replaced by the scripted fakes the Chromium tests use
 * (support/speech-fakes.ts), installed once the page has loaded (the engine reads them at Start): for the
 * tests about what is said rather than how it sounds, which would otherwise wait for a real voice to read
 * every reply aloud.
 */
async function openScripted(webkit: WebKitApp): Promise<AppUi> {
  const ui = await openWebKitApp(webkit);
  await webkit.session.evaluate(installSpeechFakes);
  return ui;
}

/** WebKit's own voices speak at speed 1 (its Flite voices stall on a second utterance at other rates). */
async function openSpeaking(webkit: WebKitApp): Promise<AppUi> {
  const ui = await openWebKitApp(webkit);
  await webkit.session.evaluate(recordSpeaking);
  // The youngest level's answers are the shortest: fewer seconds of real speech per turn.
  await choose(webkit, t.level, 'child');
  return ui;
}

describe('Astro in WebKit', () => {
  it("speaks every sentence of each reply to its end with WebKit's own voice, and listens again, turn after turn", async () => {
    const ui = await openSpeaking(app);
    expect(await statusOf(ui)).toContain('Ready when you are');
    expect(
      await app.session.evaluate(() => 'SpeechRecognition' in window || 'webkitSpeechRecognition' in window),
    ).toBe(false);
    // The case under test is this machine's own WebKit: real English voices.
    expect(await app.session.evaluate(() => speechSynthesis.getVoices().length)).toBeGreaterThan(0);

    // Two replies of several sentences in a row: the greeting, then an answer.
    await ui.clickButton(t.start);
    await ui.waitForCount(ASTRO_MESSAGE, 1);
    await waitForStatus(ui, LISTENING, { timeoutMs: 60_000 });
    await typeMessage(ui, 'Tell me about Mars');
    await ui.waitForCount(ASTRO_MESSAGE, 2);
    await waitForStatus(ui, LISTENING, { timeoutMs: 60_000 });

    expect(await texts(app, USER_MESSAGE)).toEqual(['Tell me about Mars']);
    const replies = await texts(app, ASTRO_MESSAGE);
    expect(replies).toHaveLength(2);
    expect(replies[1]).toMatch(/Mars/);
    const { spoken, cancels } = await speakingLog(app);
    // Replies of several sentences, every sentence handed to WebKit, started and ended in turn: none
    // stalled behind another, none given up on (giving up cancels the browser's speech).
    expect(spoken.length, `notes: ${JSON.stringify(await notes(app))}`).toBeGreaterThan(replies.length);
    expect(spoken.map((utterance) => utterance.events)).toEqual(spoken.map(() => ['start', 'end']));
    expect(cancels).toBe(0);
    expect(spoken.map((utterance) => utterance.text).join(' ')).toBe(
      replies.map((reply) => reply.replace(/\*/g, '')).join(' '),
    );
  });

  it('stops speaking at Skip, drops the rest of the reply and listens again at once', async () => {
    const ui = await openSpeaking(app);
    await ui.clickButton(t.start);
    await app.session.waitFor('the greeting to start speaking', 30_000, () =>
      (window as unknown as { __speaking: { spoken: Spoken[] } }).__speaking.spoken[0]?.events.includes(
        'start',
      ),
    );
    await ui.clickButton(t.skip);
    await waitForStatus(ui, LISTENING, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });
    const { spoken, cancels } = await speakingLog(app);
    // Only the greeting's first sentence was handed over, and WebKit was told to stop it.
    expect(spoken.map((utterance) => utterance.text)).toHaveLength(1);
    expect(cancels).toBe(1);
    // The greeting stays on screen, whole.
    const [greeting] = await texts(app, ASTRO_MESSAGE);
    expect(greeting?.length).toBeGreaterThan(spoken[0]?.text.length ?? 0);
    expect(greeting?.startsWith(spoken[0]?.text ?? '-')).toBe(true);
    // And the conversation carries on.
    await typeMessage(ui, 'Hello');
    await ui.waitForCount(ASTRO_MESSAGE, 2);
    await ui.clickButton(t.skip);
    await waitForStatus(ui, LISTENING, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });
  });

  it('runs a quiz: a question, "Take your time…", then a star for the right answer', async () => {
    const ui = await openScripted(app);
    await startConversation(ui, t.start, LISTENING);
    await ask(ui, 'Quiz me!', t.takeYourTime);
    const question = (await texts(app, ASTRO_MESSAGE)).at(-1) ?? '';
    const asked = teenCheckEnding(question, 'en-US');
    expect(asked, question).toBeDefined();
    expect(await ui.count('.star-count')).toBe(0);
    await ask(ui, asked?.answers[0] ?? '', t.takeYourTime);
    const starName = pluralOf('en-US', STAR_MESSAGES['en-US'].count, 1);
    await ui.waitForCount(`.star-count[aria-label="${starName}"]`, 1);
    expect(await ui.innerText('.star-count')).toMatch(/★\s*1/);
  });

  it('opens the feedback modal once a third message closes the open check; the ratings and Submit store it and close it', async () => {
    const ui = await openScripted(app);
    await app.session.evaluate(recordFeedback);
    await startConversation(ui, t.start, LISTENING);
    await typeAndWait(ui, 'What is the Sun?');
    await typeAndWait(ui, 'What is Mars?');
    expect(await ui.count('[role="dialog"]')).toBe(0);
    // The Sun's check (what makes it shine), asked again after the answer about Mars, answered right:
    // judged and closed.
    await typeMessage(ui, 'Nuclear fusion');
    await ui.waitForCount('[role="dialog"]', 1);
    expect(await ui.innerText('[role="dialog"]')).toContain('Share Your Feedback');

    await rate(app, 'Helpfulness', 'Helpfulness: 4 of 5');
    await rate(app, 'Clarity', 'Clarity: 5 of 5');
    await ui.fill('Suggestion (optional)', 'More about comets, please!');
    await ui.clickButton('Submit');
    await app.session.waitFor(
      'the dialog to close',
      30_000,
      () => !document.querySelector('[role="dialog"]'),
    );

    const [sent] = await app.session.evaluate(
      () => (window as unknown as { __feedback: { body: string; status: number }[] }).__feedback,
    );
    expect(sent?.status).toBe(201);
    const body = JSON.parse(sent?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({
      helpfulness: 4,
      clarity: 5,
      suggestion: 'More about comets, please!',
      language: 'en-US',
    });
    // The server kept it: the same feedback again is recognised as already stored.
    const again = await fetch(`${app.url}/api/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: sent?.body,
    });
    expect({ status: again.status, body: await again.json() }).toEqual({
      status: 200,
      body: { stored: false },
    });
  });

  it('lays Arabic out right to left, and with no Arabic voice shows each reply unspoken, listening at once', async () => {
    const ui = await openSpeaking(app);
    const ar = MESSAGES['ar-SA'];
    await choose(app, t.language, 'ar-SA');
    await ui.waitForText('#status-line', ar.idle);
    expect(
      await app.session.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
    ).toEqual(['ar-SA', 'rtl']);
    await ui.clickButton(ar.start);
    await ui.waitForCount(ASTRO_MESSAGE, 1);
    await waitForStatus(ui, ar.listening, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });
    await ui.fill(ar.composerLabel, 'ما هو حجم Jupiter مقارنة بـ 1300 أرض؟');
    await ui.clickButton(ar.send);
    await ui.waitForCount(ASTRO_MESSAGE, 2);
    await waitForStatus(ui, ar.listening, { timeoutMs: SOONER_THAN_ANY_WATCHDOG_MS });
    expect(await notes(app)).toContain(ar.noVoice);
    expect((await speakingLog(app)).spoken).toEqual([]);
    const layout = await app.session.evaluate((label: string) => {
      const transcript = document.querySelector(`[aria-label="${label}"]`);
      const box = transcript?.getBoundingClientRect();
      const user = document.querySelector('.message-user')?.getBoundingClientRect();
      const astro = document.querySelector('.message-astro')?.getBoundingClientRect();
      const text = document.querySelector<HTMLElement>('.message-user .bubble-text');
      return {
        transcript: transcript?.getAttribute('dir'),
        text: text?.innerText,
        direction: text ? getComputedStyle(text).direction : null,
        // Logical layout: the learner's bubbles at the inline end (left), Astro's at the start (right).
        userAtLeft: box && user ? user.left - box.left < 40 : null,
        astroAtRight: box && astro ? box.right - astro.right < 40 : null,
      };
    }, ar.transcript);
    expect(layout).toEqual({
      transcript: 'rtl',
      text: 'ما هو حجم Jupiter مقارنة بـ 1300 أرض؟',
      direction: 'rtl',
      userAtLeft: true,
      astroAtRight: true,
    });
  });

  it('streams a sentence through ManagedMediaSource where there is no MediaSource, as on iPhone', async () => {
    // The app's own audio player, bundled for the page, on WebKit's own media stack.
    const bundle = await build({
      entryPoints: [join(process.cwd(), 'test', 'e2e', 'support', 'audio-player-page.ts')],
      bundle: true,
      format: 'iife',
      write: false,
      logLevel: 'silent',
    });
    const ui = await openWebKitApp(app);
    await app.session.run(bundle.outputFiles[0]?.text ?? '');
    const mp3 = [...silentMp3(1_080)];
    await app.session.evaluate((bytes: number[]) => {
      type Audio = { push(chunk: Uint8Array): void; end(): void };
      const page = window as unknown as {
        __audioPlayer: {
          AudioPlayer: new () => { play(audio: Audio, rate: number): Promise<void> };
          SpeechAudio: new (bytesPerMs: number) => Audio;
        };
        __played: { outcome: string; sources: number; streaming: string[] };
        ManagedMediaSource: new () => EventTarget;
        MediaSource?: unknown;
      };
      // iPhone's Safari: no MediaSource, only ManagedMediaSource (which this WebKit has too).
      Object.defineProperty(window, 'MediaSource', { value: undefined, configurable: true });
      const played = { outcome: 'pending', sources: 0, streaming: [] as string[] };
      page.__played = played;
      const Managed = page.ManagedMediaSource;
      page.ManagedMediaSource = class extends Managed {
        constructor() {
          super();
          played.sources += 1;
          for (const type of ['startstreaming', 'endstreaming'])
            this.addEventListener(type, () => played.streaming.push(type));
        }
      };
      const { AudioPlayer, SpeechAudio } = page.__audioPlayer;
      const player = new AudioPlayer();
      // A learner's tap starts it, as Start does in the app (WebKit plays media only after a gesture).
      const button = document.createElement('button');
      button.textContent = 'Play the sentence';
      button.addEventListener('click', () => {
        const audio = new SpeechAudio(4);
        player.play(audio, 1).then(
          () => (played.outcome = 'ended'),
          (error: unknown) => (played.outcome = `failed: ${String(error)}`),
        );
        // The sentence arrives in three chunks while it plays.
        const chunk = bytes.length / 3;
        [0, 1, 2].forEach((index) =>
          setTimeout(() => {
            audio.push(Uint8Array.from(bytes.slice(index * chunk, (index + 1) * chunk)));
            if (index === 2) audio.end();
          }, index * 150),
        );
      });
      document.body.prepend(button);
    }, mp3);
    await ui.clickButton('Play the sentence');
    const played = await app.session.waitFor('the sentence to end', 30_000, () => {
      const result = (window as unknown as { __played: { outcome: string; streaming: string[] } }).__played;
      return result.outcome !== 'pending' ? result : null;
    });
    // One ManagedMediaSource, which opened, asked for the audio, took it as it came, and played it to
    // its end. (WebKitGTK opens one whatever the element's remote playback; Safari only with it off,
    // which the unit tests hold the player to.)
    expect(played).toMatchObject({ outcome: 'ended', sources: 1 });
    expect(played.streaming[0]).toBe('startstreaming');
  });

  // Last on purpose: it covers everything the tests above made WebKit do.
  it('never tried to reach anything outside this machine', () => {
    expect(app.outsideAttempts()).toEqual([]);
  });
});
