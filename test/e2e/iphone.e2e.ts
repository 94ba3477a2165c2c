import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, speechLog, startConversation, startTestApp, type TestApp } from './support/app';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('audio unlock on iPhone', () => {
  it('plays a silent clip on the audio element inside the Start tap', async () => {
    const { context, page } = await openApp(app, {
      userAgent: IPHONE_UA,
      viewport: { width: 390, height: 844 },
    });
    await startConversation(page);
    const plays = (await speechLog(page)).plays;
    expect(plays).toHaveLength(1);
    expect(plays[0]?.src).toMatch(/^data:audio\/wav;base64,/);
    await context.close();
  });

  it('plays nothing on a desktop browser', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    expect((await speechLog(page)).plays).toEqual([]);
    await context.close();
  });
});
