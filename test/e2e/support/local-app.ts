import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startLocalServer } from '#lambdas/local/server';

/**
 * What the browser tests share whichever browser drives them (Chromium through playwright-core, Firefox
 * through puppeteer-core): the real app served locally, and one of it per test file.
 */

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export interface LocalApp {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The local server with the real handlers, the offline tutor and images, and no Azure key (so the
 * browser speech engine is used), over an empty data directory that is removed on close. `env` adds
 * or overrides settings (e.g. a tutor model served by a fake).
 */
export async function startLocalApp(env: Readonly<Record<string, string>> = {}): Promise<LocalApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'astro-e2e-'));
  try {
    const server = await startLocalServer({
      port: 0,
      dataDir,
      env: { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline', AZURE_SPEECH_KEY: '', ...env },
    });
    return {
      url: server.url,
      close: async () => {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts one `T` for the calling test file (beforeAll) and closes it after (afterAll): a browser starts
 * once per file, not per test. The handle reads through to the started one, so tests use it as they
 * would the thing itself.
 */
export function usePerFile<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  // A Proxy stands in for T until beforeAll has run; every read goes to the started one.
  return new Proxy({} as T, {
    get(_target, key) {
      if (!started) throw new Error('The test app is not started yet: use it inside a test.');
      const value: unknown = Reflect.get(started, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}
