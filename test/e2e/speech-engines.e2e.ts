import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openApp, speechLog, startConversation, typeAndWait, useTestApp, waitForStatus } from './support/app';

const app = useTestApp();

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('audio unlock on iPhone', () => {
  it('plays a silent clip on the audio element, and opens speech synthesis, inside the Start tap', async () => {
    const { context, page } = await openApp(app, {
      userAgent: IPHONE_UA,
      viewport: { width: 390, height: 844 },
    });
    await startConversation(page);
    const { plays, utterances } = await speechLog(page);
    expect(plays).toHaveLength(1);
    expect(plays[0]?.src).toMatch(/^data:audio\/wav;base64,/);
    expect(utterances[0]?.text).toBe('');
    expect(utterances[1]?.text).not.toBe('');
    await context.close();
  });

  it('plays nothing on a desktop browser', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    const { plays, utterances } = await speechLog(page);
    expect(plays).toEqual([]);
    expect(utterances.map((utterance) => utterance.text)).not.toContain('');
    await context.close();
  });
});

describe('the browser speech engine when the server has no speech key', () => {
  it('asks for a token only if there is a key, gets 204, and logs nothing as an error in the console', async () => {
    const { context, page } = await openApp(app);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/speechToken'));
    await startConversation(page);
    const response = await answered;
    expect(response.request().headers().prefer).toBe('if-configured');
    expect(response.status()).toBe(204);
    await typeAndWait(page, 'What is a comet?');
    await expect.poll(() => page.getByText("Using your browser's built-in voice.").count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the Azure speech engine in Chromium', () => {
  it('loads the speech SDK only on Start when the server hands out a token, with an echo-cancelled microphone', async () => {
    const { context, page } = await openApp(app);
    const scripts: string[] = [];
    page.on('request', (request: Request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const constraints: unknown[] = [];
    await page.exposeFunction('__recordMicrophone', (value: unknown) => void constraints.push(value));
    // A real MediaStream from Web Audio stands in for the microphone (no device in CI).
    await page.evaluate(() => {
      navigator.mediaDevices.getUserMedia = async (wanted) => {
        await (window as unknown as { __recordMicrophone(value: unknown): Promise<void> }).__recordMicrophone(
          wanted,
        );
        return new AudioContext().createMediaStreamDestination().stream;
      };
    });
    await page.route('**/api/speechToken', (route) =>
      route.fulfill({
        json: {
          token: 'short-lived-token',
          region: 'eastus',
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
        },
        headers: { 'Cache-Control': 'no-store' },
      }),
    );
    // No Azure here: the SDK's websockets are answered by closing them, which it reports as a failure.
    const sockets: string[] = [];
    await page.routeWebSocket(/speech\.microsoft\.com/, (socket) => {
      sockets.push(new URL(socket.url()).host);
      void socket.close();
    });

    expect(scripts.some((path) => path.includes('cognitiveservices'))).toBe(false);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    // Synthesis fails without Azure, so the conversation goes straight back to listening; recognition
    // cannot connect either, so the status line says it is reconnecting rather than a dead "Listening...".
    await waitForStatus(page, 'Reconnecting...');
    await expect.poll(() => scripts.some((path) => path.includes('cognitiveservices'))).toBe(true);
    expect(constraints[0]).toMatchObject({ audio: { echoCancellation: true } });
    await expect.poll(() => sockets.some((host) => host === 'eastus.tts.speech.microsoft.com')).toBe(true);
    await expect.poll(() => sockets.some((host) => host === 'eastus.stt.speech.microsoft.com')).toBe(true);
    expect(await page.getByText("Using your browser's built-in voice.").count()).toBe(0);
    expect((await speechLog(page)).utterances).toEqual([]);
    await context.close();
  });
});
