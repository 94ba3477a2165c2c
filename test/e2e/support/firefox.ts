import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type ElementHandle, type Page } from 'puppeteer-core';
import type { AppUi } from './app-ui';
import { DESKTOP, startLocalApp, usePerFile } from './local-app';
import { watchTheOutside } from './outside-watch';

/** Debian's Firefox ESR (installed by .ci/run); nothing is downloaded. */
export const FIREFOX = '/usr/bin/firefox-esr';

/**
 * Keeps the browser off the network: the tests reach only the local app. Puppeteer's own profile
 * defaults already point several services at a dead host; these name the rest (updates, telemetry,
 * captive portal and connectivity checks, safe browsing, remote settings, region lookup, DNS over
 * HTTPS, prefetching, push).
 */
const OFFLINE_PREFERENCES: Record<string, unknown> = {
  'app.update.auto': false,
  'app.update.enabled': false,
  'app.update.disabledForTesting': true,
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'toolkit.telemetry.server': '',
  'datareporting.healthreport.uploadEnabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'browser.safebrowsing.downloads.remote.enabled': false,
  'browser.safebrowsing.provider.mozilla.updateURL': '',
  // Honoured in a release build only with MOZ_DISABLE_NONLOCAL_CONNECTIONS (below): no sync at all.
  'services.settings.server': 'data:,#remote-settings-dummy/v1',
  'extensions.systemAddon.update.enabled': false,
  'browser.region.update.enabled': false,
  'browser.region.network.url': '',
  'network.trr.mode': 5,
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'dom.push.connection.enabled': false,
  // What Chromium's tests get from `reducedMotion: 'reduce'`, which WebDriver BiDi cannot emulate here.
  'ui.prefersReducedMotion': 1,
};

function proxiedThrough(port: number): Record<string, unknown> {
  return {
    'network.proxy.type': 1,
    'network.proxy.http': '127.0.0.1',
    'network.proxy.http_port': port,
    'network.proxy.ssl': '127.0.0.1',
    'network.proxy.ssl_port': port,
  };
}

export interface FirefoxApp {
  readonly url: string;
  readonly browser: Browser;
  /** Requests Firefox tried to send off this machine (see watchTheOutside): none is expected. */
  outsideAttempts(): readonly string[];
  close(): Promise<void>;
}

/**
 * One headless Firefox, with a fresh profile in a temporary directory (removed on close), driven over
 * WebDriver BiDi, and one local app (see startLocalApp) per test file. Firefox's speech is left as the
 * machine has it: no recognition at all, and (on Debian with no speech-dispatcher voices) no voices.
 */
export async function startFirefoxApp(): Promise<FirefoxApp> {
  if (!existsSync(FIREFOX)) {
    throw new Error(
      `${FIREFOX} is missing: run 'npm run test:browsers' (it installs Debian's firefox-esr, or says how).`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'astro-firefox-'));
  const outside = await watchTheOutside();
  const local = await startLocalApp();
  const cleanUp = async () => {
    await local.close();
    await outside.close();
    await rm(profile, { recursive: true, force: true });
  };
  try {
    const browser = await puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: FIREFOX,
      headless: true,
      userDataDir: profile,
      extraPrefsFirefox: { ...OFFLINE_PREFERENCES, ...proxiedThrough(outside.port) },
      // Firefox's own switch for test runs: it refuses connections to anything but this machine, and
      // lets the remote settings server above be replaced.
      env: { ...process.env, MOZ_DISABLE_NONLOCAL_CONNECTIONS: '1' },
      timeout: 60_000,
    });
    return {
      url: local.url,
      browser,
      outsideAttempts: () => [...outside.attempts],
      close: async () => {
        await browser.close();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Starts one Firefox app for the calling test file and closes it after (see usePerFile). */
export function useFirefoxApp(): FirefoxApp {
  return usePerFile(startFirefoxApp);
}

export interface OpenFirefoxOptions {
  /** Runs in the page before the app's own scripts (serialised: keep it self-contained). */
  readonly beforeLoad?: () => void;
}

/** A fresh browser context (no shared state between tests) with the app loaded and ready to start. */
export async function openFirefoxApp(
  app: FirefoxApp,
  options: OpenFirefoxOptions = {},
): Promise<{ context: BrowserContext; page: Page; ui: AppUi }> {
  const context = await app.browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(DESKTOP);
  if (options.beforeLoad) await page.evaluateOnNewDocument(options.beforeLoad);
  await page.goto(app.url);
  const ui = puppeteerUi(page);
  await page.locator(byRole('button', 'Start Conversation')).wait();
  return { context, page, ui };
}

/** Puppeteer's ARIA selector: the element with this role and accessible name. */
export function byRole(role: string, name: string): string {
  return `::-p-aria([name=${JSON.stringify(name)}][role=${JSON.stringify(role)}])`;
}

/** The app's screen driven through puppeteer-core (see app-ui.ts). */
export function puppeteerUi(page: Page): AppUi {
  return {
    clickButton: (name) => page.locator(byRole('button', name)).click(),
    fill: async (label, text) => {
      // Firefox's accessibility lookup answers with the <label> that names a field rather than the
      // field, which puppeteer's fill cannot type into: fill the field that label belongs to.
      const named = await page.$(`::-p-aria(${JSON.stringify(label)})`);
      const field = (
        await named?.evaluateHandle(
          (found) => (found instanceof HTMLLabelElement ? found.control : found) as HTMLElement | null,
        )
      )?.asElement();
      if (!field) throw new Error(`No field labelled "${label}".`);
      // The handle holds the element the page function returned: an HTMLElement.
      await (field as ElementHandle<HTMLElement>).asLocator().fill(text);
    },
    count: (selector) => page.$$eval(selector, (elements) => elements.length),
    waitForCount: async (selector, count) => {
      await page.waitForFunction(
        (wanted: string, atLeast: number) => document.querySelectorAll(wanted).length >= atLeast,
        { polling: 50 },
        selector,
        count,
      );
    },
    waitForText: async (selector, text, options) => {
      const waiting = page.waitForFunction(
        (wanted: string, part: string) => {
          const normalise = (value: string) => value.replace(/\s+/g, ' ').trim().toLowerCase();
          return [...document.querySelectorAll<HTMLElement>(wanted)].some((element) =>
            normalise(element.innerText).includes(normalise(part)),
          );
        },
        { polling: 50, ...(options?.timeoutMs ? { timeout: options.timeoutMs } : {}) },
        selector,
        text,
      );
      await waiting.catch(async (error: unknown) => {
        // Say what the page showed instead, e.g. a status line stuck at "Speaking...".
        const shown = await page
          .$$eval(selector, (elements) => elements.map((element) => (element as HTMLElement).innerText))
          .catch(() => []);
        throw new Error(`${selector} never read "${text}"; it reads ${JSON.stringify(shown)}`, {
          cause: error,
        });
      });
    },
    innerText: (selector) => page.$eval(selector, (element) => (element as HTMLElement).innerText),
  };
}
