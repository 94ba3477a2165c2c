import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#support/ui-strings';
import { AzureSpeechFake } from '#support/azure-speech-fake';
import { silentMp3 } from '#support/silent-mp3';
import { judgeReplies, waitForStatus } from './support/app';
import {
  HAVE_METADATA,
  MP3_FORMAT,
  endedCount,
  mediaLog,
  mediaState,
  openAzureApp,
  sayAndHear,
  startIn,
  userMessages,
  useAzureTestApp,
} from './support/azure-app';

// A spoken conversation on the Azure speech path in Chromium: the real Speech SDK against the fake speech
// service, under the page's real CSP (test/e2e/support/azure-app.ts). Its faults and limits are in
// azure-speech-faults.e2e.ts, which runs beside this file.

const app = useAzureTestApp();

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
});
