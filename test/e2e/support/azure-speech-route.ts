import type { Page } from 'playwright-core';
import { AzureSpeechFake } from '#support/azure-speech-fake';

/**
 * Serves the fake speech service to a page: every websocket the SDK opens to `*.speech.microsoft.com`
 * (recognition on `<region>.stt…`, synthesis on `<region>.tts…`) is answered by the fake, in the page's
 * own origin policy (the CSP still decides whether the page may open it). A browser cannot set headers on
 * a websocket, so the SDK repeats them in the URL query, where the fake reads the token.
 */
export async function routeAzureSpeech(page: Page, fake = new AzureSpeechFake()): Promise<AzureSpeechFake> {
  await page.routeWebSocket(/speech\.microsoft\.com/, (route) => {
    let open = true;
    const session = fake.connect(
      route.url(),
      {},
      {
        sendText: (text) => open && route.send(text),
        sendBinary: (bytes) => open && route.send(Buffer.from(bytes)),
        close: (code, reason) => {
          open = false;
          void route.close({ code, reason });
          session.closed();
        },
      },
    );
    route.onMessage((message) =>
      session.receive(typeof message === 'string' ? message : new Uint8Array(message)),
    );
    route.onClose(() => {
      open = false;
      session.closed();
    });
  });
  return fake;
}
