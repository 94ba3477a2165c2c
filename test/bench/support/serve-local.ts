/**
 * The local server (embedded dynalite, offline tutor) on a free port, with data in a throwaway folder.
 * `--web`: it also serves the built web app (dist/web), for the browser benches.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalServer } from '#lambdas/local/server';

const root = await mkdtemp(join(tmpdir(), 'astro-bench-'));
const server = await startLocalServer({
  port: 0,
  dataDir: join(root, 'data'),
  ...(process.argv.includes('--web') ? {} : { webRoot: join(root, 'web') }),
  env: { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline', AZURE_SPEECH_KEY: '', SPEECH_SECRET_ID: '' },
});
console.log(JSON.stringify({ url: server.url, dynamodb: server.env.DYNAMODB_ENDPOINT }));
process.on('SIGTERM', () => {
  void server
    .close()
    .then(() => rm(root, { recursive: true, force: true }))
    .then(() => process.exit(0));
});
