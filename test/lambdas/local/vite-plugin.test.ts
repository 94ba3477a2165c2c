import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astroApi } from '#lambdas/local/vite-plugin';
import { feedbackBody } from '#support/feedback';

let root: string;
let vite: ViteDevServer;
let url: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'astro-vite-'));
  await writeFile(join(root, 'index.html'), '<!doctype html><title>dev page</title>');
  vite = await createServer({
    configFile: false,
    root,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1' },
    plugins: [
      astroApi({
        dataDir: join(root, 'data'),
        env: { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline' },
      }),
    ],
  });
  await vite.listen();
  url = `http://127.0.0.1:${(vite.httpServer?.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await vite.close();
  await rm(root, { recursive: true, force: true });
});

describe('astroApi on the Vite dev server', () => {
  it('serves /api/feedback through the same handler and embedded table', async () => {
    const body = JSON.stringify(feedbackBody());
    const post = () =>
      fetch(`${url}/api/feedback`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

    const first = await post();
    const repeat = await post();

    expect([first.status, repeat.status]).toEqual([201, 200]);
    expect(await repeat.json()).toEqual({ stored: false });
  });

  it('answers unknown API paths with 404 JSON and leaves other paths to Vite', async () => {
    const unknown = await fetch(`${url}/api/nothing`, { method: 'POST' });
    const page = await fetch(`${url}/`);

    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    expect(await page.text()).toContain('dev page');
  });
});
