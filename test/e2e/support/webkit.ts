import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppUi } from './app-ui';
import { startLocalApp, usePerFile } from './local-app';
import { watchTheOutside } from './outside-watch';
import { driverReady, WebDriverSession, type ElementReference } from './webdriver';

/** Debian's WebKitGTK WebDriver (package webkit2gtk-driver) and X server wrapper (xvfb); nothing is downloaded. */
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const XVFB_RUN = '/usr/bin/xvfb-run';

/** MiniBrowser cannot be made narrower than this (its toolbar): phone widths are framed (see openPhoneFrame). */
export const WEBKIT_MIN_WINDOW_WIDTH = 450;

/** How long the driver may take to come up under a fresh X server on a loaded 2-core machine. */
const DRIVER_START_MS = 30_000;
/** How long a new session (MiniBrowser launched and connected) may take, and how many tries it gets. */
const SESSION_START_MS = 20_000;
const SESSION_ATTEMPTS = 3;

/**
 * WebKitWebDriver under `xvfb-run`, in a process group of its own (the X server, the driver, MiniBrowser
 * and WebKit's web, network and GPU processes are all in it), so that close() ends every one of them.
 */
interface Driver {
  readonly url: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether any process of the group is still there (zombies waiting to be reaped count as gone). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  // A group of zombies still answers signal 0; /proc says whether anyone in it still runs.
  try {
    return readdirSync('/proc').some((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return fields[0] !== 'Z' && Number(fields[2]) === pgid;
      } catch {
        return false;
      }
    });
  } catch {
    return true;
  }
}

/**
 * Ends the process group: SIGTERM to every member (Xvfb then removes its display lock, WebKit its
 * processes), and SIGKILL for whatever is still running after 5 s.
 */
async function endGroup(pgid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const until = Date.now() + 5_000;
  while (groupAlive(pgid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  if (groupAlive(pgid)) signal('SIGKILL');
}

/**
 * The group's leader: starts `xvfb-run …` and, once a second, checks that the test process (`$1`) is
 * still there; when it is gone, or xvfb-run has ended, it ends the whole group (itself included), so a
 * test run killed outright (a timeout, Ctrl-C) leaves no X server or browser behind.
 */
const WATCH_THE_TEST_PROCESS = `parent=$1; shift
"$@" &
while kill -0 "$parent" 2>/dev/null && kill -0 $! 2>/dev/null; do sleep 1; done
kill -TERM 0`;

async function startDriver(home: string): Promise<Driver> {
  const port = await freePort();
  // -a: the first free display, so several test files (and people) can run at once. Each test worker
  // starts its search at a display of its own (-n), so two files starting together do not both pick the
  // same one (the second X server would fail, and its browser land on the first file's display).
  const firstDisplay = 99 + 10 * Number(process.env.VITEST_POOL_ID ?? 0);
  const child = spawn(
    'sh',
    [
      '-c',
      WATCH_THE_TEST_PROCESS,
      'webkit-group',
      String(process.pid),
      XVFB_RUN,
      // -n before -a: xvfb-run looks for the free display when it reads -a.
      '-n',
      String(firstDisplay),
      '-a',
      '-s',
      '-screen 0 1280x1024x24 -nolisten tcp',
      WEBKIT_DRIVER,
      `--port=${port}`,
      '--host=local',
    ],
    {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      // MiniBrowser's caches and settings go to a temporary home, removed on close.
      env: {
        ...process.env,
        HOME: home,
        XDG_CACHE_HOME: home,
        XDG_CONFIG_HOME: home,
        XDG_DATA_HOME: home,
        // No D-Bus session here: nothing (accessibility bus, settings) should look for one.
        NO_AT_BRIDGE: '1',
        GSETTINGS_BACKEND: 'memory',
        DBUS_SESSION_BUS_ADDRESS: 'disabled:',
        // Under Xvfb there is no GPU: WebKit's DMA-BUF renderer then draws every frame through Mesa's
        // software GL, about 6 s of CPU a test. Its shared-memory fallback (still composited) draws the same
        // pages for about a sixth of that (docs/testing.md, "How long it takes").
        WEBKIT_DISABLE_DMABUF_RENDERER: '1',
      },
    },
  );
  // The tail of what the driver and browser said, for a failure to start (ALSA and D-Bus noise aside).
  let said = '';
  child.stderr?.on('data', (data: Buffer) => (said = (said + data.toString()).slice(-4_000)));
  // Should this process exit without closing (a failed hook), the group goes with it; should it be
  // killed outright, the group's leader notices within a second (WATCH_THE_TEST_PROCESS).
  const orphaned = () => {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  process.once('exit', orphaned);
  const close = async () => {
    process.off('exit', orphaned);
    if (child.pid !== undefined) await endGroup(child.pid);
  };
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + DRIVER_START_MS;
  while (!(await driverReady(url, 2_000))) {
    if (child.exitCode !== null || Date.now() > until) {
      await close();
      throw new Error(
        `WebKitWebDriver did not start under xvfb-run: ${said.trim().split('\n').slice(-5).join(' | ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, close };
}

export interface WebKitApp {
  readonly url: string;
  readonly session: WebDriverSession;
  /** Requests WebKit tried to send off this machine (see watchTheOutside): none is expected. */
  outsideAttempts(): readonly string[];
  close(): Promise<void>;
}

/**
 * One WebKitGTK MiniBrowser, driven over W3C WebDriver, and one local app (see startLocalApp) per test
 * file. WebKit's speech is the machine's own: no SpeechRecognition (the learner types) and, where
 * Debian's WebKitGTK has its Flite voices, a real speechSynthesis in English.
 */
export async function startWebKitApp(): Promise<WebKitApp> {
  for (const tool of [WEBKIT_DRIVER, XVFB_RUN]) {
    if (!existsSync(tool)) {
      throw new Error(
        `${tool} is missing: run 'npm run test:browsers' (it installs Debian's webkit2gtk-driver and xvfb, or says how).`,
      );
    }
  }
  const home = await mkdtemp(join(tmpdir(), 'astro-webkit-'));
  const outside = await watchTheOutside();
  const local = await startLocalApp();
  let driver: Driver | undefined;
  const cleanUp = async () => {
    await driver?.close();
    await local.close();
    await outside.close();
    await rm(home, { recursive: true, force: true });
  };
  const capabilities = {
    browserName: 'MiniBrowser',
    // Every address but this machine's goes to the recording proxy.
    proxy: {
      proxyType: 'manual',
      httpProxy: `127.0.0.1:${outside.port}`,
      sslProxy: `127.0.0.1:${outside.port}`,
      noProxy: ['127.0.0.1', 'localhost'],
    },
    'webkitgtk:browserOptions': { args: ['--automation', '--enable-dns-prefetching=false'] },
  };
  try {
    let session: WebDriverSession | undefined;
    // A session opens in 1–3 s. Should the driver take the command and never launch MiniBrowser (it did,
    // one start in three, while GLib still looked for a D-Bus session: see the environment above), the
    // whole group is ended and started again.
    // Two test files starting at once may also pick the same free display (xvfb-run -a), and one X
    // server then fails to start: that too is tried again.
    for (let attempt = 1; !session; attempt += 1) {
      try {
        driver = await startDriver(home);
        session = await WebDriverSession.create(driver.url, capabilities, SESSION_START_MS);
      } catch (error) {
        await driver?.close();
        driver = undefined;
        if (attempt === SESSION_ATTEMPTS) throw error;
      }
    }
    return {
      url: local.url,
      session,
      outsideAttempts: () => [...outside.attempts],
      close: async () => {
        await session.close().catch(() => undefined);
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Starts one WebKit app for the calling test file and closes it after, even when a test failed. */
export function useWebKitApp(): WebKitApp {
  return usePerFile(startWebKitApp);
}

/** Loads the app afresh in the window (a new page: no state from the test before) at this size. */
export async function openWebKitApp(
  app: WebKitApp,
  size: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<AppUi> {
  await app.session.switchToFrame(null);
  await app.session.setWindowRect(size);
  await app.session.navigate(`${app.url}/`);
  const ui = webDriverUi(app.session);
  await app.session.waitFor('the Start button', 30_000, findButton, 'Start Conversation');
  return ui;
}

/** The app in a phone-sized frame (see openPhoneFrame). */
export interface PhoneFrame {
  readonly ui: AppUi;
  /** Makes the frame, and so the app's viewport, this many CSS pixels wide. */
  setWidth(width: number): Promise<void>;
}

/**
 * The app in a same-origin frame of `width` × `height` px, a true phone viewport (its media queries,
 * `innerWidth`, layout), since MiniBrowser's window is never narrower than ~450 px. The app's site policy
 * forbids being framed (`frame-ancestors 'none'`), so the frame is an empty document of the app's own
 * origin into which the app's page is written: the same HTML, scripts and styles, from the same server.
 * Commands then run in the frame.
 */
export async function openPhoneFrame(
  app: WebKitApp,
  size: { width: number; height: number },
): Promise<PhoneFrame> {
  const { session } = app;
  await session.switchToFrame(null);
  await session.setWindowRect({ width: 1280, height: size.height + 200 });
  await session.navigate(`${app.url}/`);
  await session.evaluate(
    async (width: number, height: number) => {
      const html = await (await fetch('/')).text();
      const frame = document.createElement('iframe');
      frame.style.cssText = `border:0;display:block;width:${width}px;height:${height}px`;
      document.body.replaceChildren(frame);
      document.body.style.margin = '0';
      const inner = frame.contentDocument;
      if (!inner) throw new Error('no frame document');
      inner.open();
      inner.write(html);
      inner.close();
    },
    size.width,
    size.height,
  );
  const enter = async () => {
    const frame = await session.evaluate(() => document.querySelector('iframe'));
    await session.switchToFrame(frame as unknown as ElementReference);
  };
  await enter();
  await session.waitFor('the Start button in the frame', 30_000, findButton, 'Start Conversation');
  return {
    ui: webDriverUi(session),
    setWidth: async (width) => {
      await session.switchToFrame(null);
      await session.evaluate((wanted: number) => {
        const frame = document.querySelector('iframe');
        if (frame) frame.style.width = `${wanted}px`;
      }, width);
      await enter();
      await session.waitFor('the new width', 10_000, (wanted: number) => innerWidth === wanted, width);
    },
  };
}

/**
 * Runs in the page: the enabled button whose accessible name (its aria-label, else its text without what
 * is hidden from assistive technology) is `name`; null when there is none yet.
 */
function findButton(name: string): Element | null {
  const nameOf = (element: Element) => {
    const label = element.getAttribute('aria-label');
    if (label) return label.trim();
    const copy = element.cloneNode(true) as Element;
    copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
    return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
  };
  return (
    [...document.querySelectorAll('button')].find((button) => !button.disabled && nameOf(button) === name) ??
    null
  );
}

/** Runs in the page: the field labelled `label` (its aria-label, or the text of its <label>). */
function findField(label: string): Element | null {
  const wanted = label.replace(/\s+/g, ' ').trim();
  const byAria = [...document.querySelectorAll('input, textarea, select')].find(
    (field) => field.getAttribute('aria-label')?.trim() === wanted,
  );
  if (byAria) return byAria;
  const byLabel = [...document.querySelectorAll('label')].find(
    (element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim() === wanted,
  );
  return byLabel?.control ?? null;
}

/** The app's screen driven over WebDriver (see app-ui.ts): real clicks and keystrokes. */
export function webDriverUi(session: WebDriverSession): AppUi {
  const DEFAULT_WAIT_MS = 30_000;
  return {
    clickButton: async (name) => {
      const button = await session.waitFor(`the button "${name}"`, DEFAULT_WAIT_MS, findButton, name);
      await session.click(button as unknown as ElementReference);
    },
    fill: async (label, text) => {
      const field = await session.waitFor(`the field "${label}"`, DEFAULT_WAIT_MS, findField, label);
      await session.type(field as unknown as ElementReference, text);
    },
    count: (selector) =>
      session.evaluate((wanted: string) => document.querySelectorAll(wanted).length, selector),
    waitForCount: async (selector, count) => {
      await session.waitFor(
        `${count} of ${selector}`,
        DEFAULT_WAIT_MS,
        (wanted: string, atLeast: number) => document.querySelectorAll(wanted).length >= atLeast,
        selector,
        count,
      );
    },
    waitForText: async (selector, text, options) => {
      const timeoutMs = options?.timeoutMs ?? DEFAULT_WAIT_MS;
      try {
        await session.waitFor(
          `${selector} reading "${text}"`,
          timeoutMs,
          (wanted: string, part: string) => {
            const normalise = (value: string) => value.replace(/\s+/g, ' ').trim().toLowerCase();
            return [...document.querySelectorAll<HTMLElement>(wanted)].some((element) =>
              normalise(element.innerText).includes(normalise(part)),
            );
          },
          selector,
          text,
        );
      } catch (error) {
        // Say what the page showed instead, e.g. a status line stuck at "Speaking...".
        const shown = await session
          .evaluate(
            (wanted: string) =>
              [...document.querySelectorAll<HTMLElement>(wanted)].map((element) => element.innerText),
            selector,
          )
          .catch(() => []);
        throw new Error(`${selector} never read "${text}"; it reads ${JSON.stringify(shown)}`, {
          cause: error,
        });
      }
    },
    innerText: (selector) =>
      session.evaluate(
        (wanted: string) => document.querySelector<HTMLElement>(wanted)?.innerText ?? '',
        selector,
      ),
  };
}
