/**
 * What the browser benches share: building the web app, Debian's Chromium with the tests' switches and a
 * fake microphone, the median of a set of figures, the round trip through Playwright's websocket
 * routing (the test harness's share of a speech-service hop), and a throwaway certificate for the fake
 * speech service served on a real loopback websocket.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../../e2e/support/app';

export const root = fileURLToPath(new URL('../../..', import.meta.url));

/** `vite build` of the web app into dist/web, quietly; throws when it fails. */
export function buildWeb(): void {
  const build = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/vite.config.ts',
      '--logLevel',
      'error',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (build.status !== 0) throw new Error('vite build failed');
}

/** /api/speechToken answered with a ten-minute bench token, so the app takes its Azure speech path. */
export async function handOutSpeechTokens(page: Page): Promise<void> {
  await page.route('**/api/speechToken', (route) =>
    route.fulfill({
      json: {
        token: 'bench-token',
        region: 'eastus',
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
    }),
  );
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/**
 * How long a message takes through Playwright's websocket routing and back, measured in the page on a
 * routed echo socket at a speech host (so the page's CSP allows it), median of 20.
 */
export async function routedWebSocketRoundTrip(page: Page): Promise<number> {
  await page.routeWebSocket(/\/bench-echo$/, (route) => route.onMessage((message) => route.send(message)));
  const trips = await page.evaluate(async () => {
    const socket = new WebSocket('wss://eastus.tts.speech.microsoft.com/bench-echo');
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    const measured: number[] = [];
    for (let trip = 0; trip < 20; trip += 1) {
      const sent = performance.now();
      await new Promise((resolve) => {
        socket.onmessage = resolve;
        socket.send(String(trip));
      });
      measured.push(performance.now() - sent);
    }
    socket.close();
    return measured;
  });
  return median(trips);
}

/**
 * A self-signed certificate for the fake speech service's TLS websocket, made by openssl in a throwaway
 * folder for this run only (Chromium is told to accept it; nothing is kept).
 */
export function throwawayCertificate(): { readonly key: string; readonly cert: string } {
  const folder = mkdtempSync(join(tmpdir(), 'astro-bench-tls-'));
  try {
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
        .concat(['-subj', '/CN=speech.microsoft.com', '-keyout', join(folder, 'key.pem')])
        .concat(['-out', join(folder, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    if (made.error || made.status !== 0) throw new Error('openssl is missing: apt-get install -y openssl');
    return {
      key: readFileSync(join(folder, 'key.pem'), 'utf8'),
      cert: readFileSync(join(folder, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Debian's Chromium headless shell as the browser tests launch it, with a fake microphone and audio that
 * may autoplay. With `speechPort`, the speech service's hosts (`*.speech.microsoft.com`) resolve to that
 * loopback port and its throwaway certificate is accepted: the page's own websocket reaches the fake
 * speech service directly, as it would reach the real one, with no routing through the test harness.
 */
export function launchVoiceChromium(options: { readonly speechPort?: number } = {}): Promise<Browser> {
  requireChromium();
  const speech =
    options.speechPort === undefined
      ? []
      : [
          `--host-resolver-rules=MAP *.speech.microsoft.com 127.0.0.1:${options.speechPort}`,
          '--ignore-certificate-errors',
        ];
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
      ...speech,
    ],
  });
}
