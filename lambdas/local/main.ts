/**
 * `npm start`: builds the web app if it is not built yet, then serves everything from one Node process
 * on http://localhost:8787 (PORT overrides; HOST=0.0.0.0 exposes it to the network) with data under .data/.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPictureConfig, readSpeechConfig, readSpendConfig, readTutorConfig, type Env } from '../config';
import { DEFAULT_WEB_ROOT, startLocalServer } from './server';
import { stopOnSignal } from './stop-signals';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

async function buildWebIfMissing(): Promise<void> {
  if (existsSync(join(DEFAULT_WEB_ROOT, 'index.html'))) return;
  console.log('Building the web app (first run)...');
  const viteCli = join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  await new Promise<void>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [viteCli, 'build', '--config', 'web/vite.config.ts'], {
      cwd: projectRoot,
      stdio: 'inherit',
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`vite build exited with ${code}`)),
    );
  });
}

/** Which provider each part uses, in words; a configuration error is shown instead of hidden. */
function describe(env: Env): string[] {
  const safely = (read: () => string) => {
    try {
      return read();
    } catch (error) {
      return `misconfigured (${error instanceof Error ? error.message : 'unknown'})`;
    }
  };
  return [
    `  tutor:    ${safely(() => readTutorConfig(env).provider)}`,
    `  pictures: ${safely(() => readPictureConfig(env).provider)}`,
    `  speech:   ${safely(() => {
      const speech = readSpeechConfig(env);
      return speech.secretId || speech.localKey
        ? `azure (region ${speech.region})`
        : 'browser (no AZURE_SPEECH_KEY set)';
    })}`,
    `  spending: ${safely(() => {
      const budget = readSpendConfig(env).dailyBudgetUsd;
      return budget === undefined
        ? 'recorded, no cap (ASTRO_DAILY_BUDGET_USD unset)'
        : `capped at $${budget} a day (UTC), then the offline tutor`;
    })}`,
  ];
}

async function main(): Promise<void> {
  // The AWS SDK warns on Node 20 about its releases after January 2027; docs/troubleshooting.md covers it,
  // and the notice would otherwise bury the start-up summary below.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  await buildWebIfMissing();
  const dataDir = resolve(projectRoot, '.data');
  const server = await startLocalServer({ dataDir, host: process.env.HOST?.trim() || undefined });
  console.log(
    [
      // 127.0.0.1 is what it listens on; localhost is what people type.
      `Astro is running at ${server.url.replace('//127.0.0.1:', '//localhost:')}`,
      ...describe(server.env),
      `  data:     ${relative(process.cwd(), dataDir) || '.'}/ (feedback table in dynamodb/, pictures in images/)`,
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );
  const stop = stopOnSignal({
    close: () => server.close(),
    exit: (code) => process.exit(code),
    say: (line) => console.log(line),
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const hint = /EADDRINUSE/.test(message) ? ' (is another copy running? set PORT to use another port)' : '';
  console.error(`Astro could not start: ${message}${hint}`);
  process.exit(1);
});
