import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#support/ui-strings';
import { speech, speechLog, waitForStatus } from './support/app';
import {
  PCM_BYTES_PER_SECOND,
  endedCount,
  openAzureApp,
  sayAndHear,
  startIn,
  userMessages,
  useAzureTestApp,
} from './support/azure-app';

// The Azure speech path in Chromium when the speech service fails (no answer, a normal close, a 1007 drop),
// when tokens are refreshed or refused over budget, and after the page stalls: the real Speech SDK against
// the fake speech service (test/e2e/support/azure-app.ts). Split from azure-speech.e2e.ts so the two run
// side by side: most of each test is waiting on real deadlines and real audio.

const app = useAzureTestApp();

describe('the Azure speech path in Chromium when the service fails or the budget ends', () => {
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
