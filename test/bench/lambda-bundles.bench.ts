/**
 * Each Lambda as it is deployed: bundled by esbuild (minified, ESM, Node target, AWS SDK included, the same
 * options as infra/constructs/astro-function.ts), then its size and its module init time, measured by
 * importing the bundle in a fresh Node process as Lambda's init phase does.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { perEndpoint } from '#lambdas/endpoints';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** One bundle per row of the endpoint registry, from the handler CDK deploys for it. */
const ENTRIES = perEndpoint((endpoint) => `lambdas/${endpoint.function.folder}/handler.ts`);
const INIT_SAMPLES = 5;

/** What each function has when deployed, so init builds the same clients (no request is made). */
const LAMBDA_ENV = {
  AWS_LAMBDA_FUNCTION_NAME: 'astro-bench',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'silent',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  ASTRO_MODEL: 'bedrock',
  ASTRO_IMAGE_MODEL: 'bedrock',
  IMAGE_STORE: 's3',
  IMAGE_BUCKET: 'astro-bench-images',
  FEEDBACK_TABLE: 'astro-bench-feedback',
  SPEECH_SECRET_ID: 'astro/bench',
  TRUST_SECRET_ID: 'astro/bench-signing-key',
};

/** Imports the bundle in a fresh process and prints how long the import took, in milliseconds. */
const PROBE = `
const started = performance.now();
const module = await import(process.argv[1]);
if (typeof module.handler !== 'function') throw new Error('no handler export');
console.log((performance.now() - started).toFixed(1));
// Init starts reading the signing key (there is no AWS here): what was measured is done, so stop.
process.exit(0);
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const out = await mkdtemp(join(tmpdir(), 'astro-bundles-'));
  try {
    console.log(
      `esbuild: minify, esm, platform node, target node20, AWS SDK bundled; init = median of ${INIT_SAMPLES}`,
    );
    console.log(
      ['function'.padEnd(14), 'bundle KiB'.padStart(11), 'gzip KiB'.padStart(9), 'init ms'.padStart(8)].join(
        ' ',
      ),
    );
    for (const [name, entry] of Object.entries(ENTRIES)) {
      const outfile = join(out, `${name}.mjs`);
      await build({
        entryPoints: [join(root, entry)],
        outfile,
        bundle: true,
        minify: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        mainFields: ['module', 'main'],
        banner: {
          js: "import { createRequire as __astroCreateRequire } from 'node:module'; const require = __astroCreateRequire(import.meta.url);",
        },
        logLevel: 'error',
      });
      const size = (await stat(outfile)).size;
      const gzip = gzipSync(readFileSync(outfile)).length;
      const samples = Array.from({ length: INIT_SAMPLES }, () =>
        Number(
          execFileSync(process.execPath, ['--input-type=module', '-e', PROBE, outfile], {
            env: { PATH: process.env.PATH, ...LAMBDA_ENV },
            encoding: 'utf8',
          }).trim(),
        ),
      );
      console.log(
        [
          name.padEnd(14),
          (size / 1024).toFixed(1).padStart(11),
          (gzip / 1024).toFixed(1).padStart(9),
          median(samples).toFixed(1).padStart(8),
        ].join(' '),
      );
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

await main();
