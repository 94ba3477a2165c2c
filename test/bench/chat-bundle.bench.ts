/**
 * The chat Lambda with its lessons beside the bundle (after) against the same code with every lesson
 * compiled in and evaluated at load (before: what lambdas/tutor/offline/knowledge.ts did with static JSON
 * imports until the lessons moved out, docs/design-notes.md). Both are bundled as
 * infra/constructs/astro-function.ts bundles them (esbuild, minified ESM, AWS SDK included) with the
 * lesson folder copied beside index.mjs. Cold start = in a fresh Node process, the time to import the
 * bundle (Lambda's init, clients built) and then to answer a first request, on Bedrock (the real client
 * against a loopback fake; grounding reads one language) and on the offline tutor.
 */
import { build, type BuildOptions } from 'esbuild';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { newTrustSecret } from '#lambdas/trust/trust-keys';
import { answersInTurn, converseAnswer, startBedrockFake, textBlock } from '#support/bedrock-fake';

const root = fileURLToPath(new URL('../..', import.meta.url));
const LESSONS = join(root, 'lambdas/tutor/offline/knowledge');
const SAMPLES = 9;
const execFileAsync = promisify(execFile);

/** The same esbuild options as infra/constructs/astro-function.ts. */
const BUNDLING: BuildOptions = {
  bundle: true,
  minify: true,
  sourcemap: false,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  mainFields: ['module', 'main'],
  banner: {
    js: "import { createRequire as __astroCreateRequire } from 'node:module'; const require = __astroCreateRequire(import.meta.url);",
  },
  logLevel: 'error',
};

/** Imports the bundle, then answers one request; prints both times in milliseconds. */
const PROBE = `
const started = performance.now();
const cpu = process.cpuUsage();
const { handler } = await import(process.argv[1]);
const imported = performance.now();
const importCpu = process.cpuUsage(cpu);
const result = await handler({
  httpMethod: 'POST', path: '/api/chat', headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ userMessage: 'What is a black hole?', language: 'en-US', chatHistory: [], conversationId: 'c0ffee00-0000-4000-8000-000000000002' }),
  isBase64Encoded: false, requestContext: { requestId: 'bench' },
});
if (result.statusCode !== 200) throw new Error('first reply ' + result.statusCode + ' ' + result.body);
console.log(JSON.stringify({
  importMs: imported - started,
  importCpuMs: (importCpu.user + importCpu.system) / 1000,
  firstReplyMs: performance.now() - started,
}));
process.exit(0);
`;

interface Figures {
  readonly bundleKiB: number;
  readonly gzipKiB: number;
  readonly importMs: number;
  readonly importCpuMs: number;
  readonly firstReplyMs: number;
  readonly offlineFirstReplyMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The lesson files compiled into the bundle and evaluated when it loads, as before. */
async function eagerEntry(dir: string): Promise<string> {
  const files = (await readdir(LESSONS)).filter((name) => name.endsWith('.json')).sort();
  const entry = join(dir, 'eager-entry.ts');
  await writeFile(
    entry,
    [
      `export { handler } from ${JSON.stringify(join(root, 'lambdas/chat/handler.ts'))};`,
      ...files.map((file, index) => `import lesson${index} from ${JSON.stringify(join(LESSONS, file))};`),
      `export const lessons = [${files.map((_, index) => `lesson${index}`).join(', ')}];`,
    ].join('\n'),
  );
  return entry;
}

async function bundleInto(dir: string, entry: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const outfile = join(dir, 'index.mjs');
  await build({ ...BUNDLING, entryPoints: [entry], outfile });
  await cp(LESSONS, join(dir, 'knowledge'), { recursive: true });
  return outfile;
}

interface Sample {
  readonly importMs: number;
  /** CPU time (user + system) the import took: steadier than wall time on a busy machine. */
  readonly importCpuMs: number;
  readonly firstReplyMs: number;
}

async function probe(bundle: string, env: Record<string, string>): Promise<Sample> {
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', PROBE, bundle], {
    env: { PATH: process.env.PATH, ...env },
    timeout: 30_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Sample;
}

/**
 * Cold starts of every bundle, taken in turns (before, after, before, …) so that a machine busy with
 * other work slows both alike, each figure the median of its samples.
 */
async function coldStarts(bundles: readonly string[], env: Record<string, string>): Promise<Sample[]> {
  const samples = bundles.map((): Sample[] => []);
  for (let round = 0; round < SAMPLES; round += 1) {
    for (const [index, bundle] of bundles.entries()) samples[index]?.push(await probe(bundle, env));
  }
  return samples.map((taken) => ({
    importMs: median(taken.map((sample) => sample.importMs)),
    importCpuMs: median(taken.map((sample) => sample.importCpuMs)),
    firstReplyMs: median(taken.map((sample) => sample.firstReplyMs)),
  }));
}

async function measure(bundles: readonly string[], bedrockUrl: string): Promise<Figures[]> {
  const lambda = {
    AWS_LAMBDA_FUNCTION_NAME: 'astro-bench',
    AWS_REGION: 'us-east-1',
    LOG_LEVEL: 'silent',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    TRUST_KEY: newTrustSecret(),
  };
  const bedrock = await coldStarts(bundles, {
    ...lambda,
    ASTRO_MODEL: 'bedrock',
    BEDROCK_ENDPOINT: bedrockUrl,
  });
  const offline = await coldStarts(bundles, { ...lambda, ASTRO_MODEL: 'offline' });
  return Promise.all(
    bundles.map(async (bundle, index) => ({
      bundleKiB: (await stat(bundle)).size / 1024,
      gzipKiB: gzipSync(await readFile(bundle)).length / 1024,
      importMs: bedrock[index]?.importMs ?? Number.NaN,
      importCpuMs: bedrock[index]?.importCpuMs ?? Number.NaN,
      firstReplyMs: bedrock[index]?.firstReplyMs ?? Number.NaN,
      offlineFirstReplyMs: offline[index]?.firstReplyMs ?? Number.NaN,
    })),
  );
}

async function main(): Promise<void> {
  const out = await mkdtemp(join(tmpdir(), 'astro-chat-bundle-'));
  const bedrock = await startBedrockFake(
    answersInTurn(converseAnswer([textBlock('A black hole is very dense.')])),
  );
  try {
    const [before, after] = await measure(
      [
        await bundleInto(join(out, 'before'), await eagerEntry(out)),
        await bundleInto(join(out, 'after'), join(root, 'lambdas/chat/handler.ts')),
      ],
      bedrock.url,
    );
    if (!before || !after) throw new Error('a bundle was not measured');
    const lessonsKiB =
      (
        await Promise.all(
          (await readdir(LESSONS)).map(async (name) => (await stat(join(LESSONS, name))).size),
        )
      ).reduce((sum, size) => sum + size, 0) / 1024;
    console.log(
      `chat Lambda, median of ${SAMPLES} fresh processes; before = every lesson compiled in and evaluated at ` +
        `load, after = lessons beside the bundle (${lessonsKiB.toFixed(0)} KiB of JSON, read on demand)`,
    );
    console.log(
      [
        ''.padEnd(7),
        'index.mjs KiB'.padStart(14),
        'gzip KiB'.padStart(9),
        'import ms'.padStart(10),
        'import CPU ms'.padStart(14),
        'bedrock 1st reply ms'.padStart(21),
        'offline 1st reply ms'.padStart(21),
      ].join(' '),
    );
    for (const [name, figures] of [
      ['before', before],
      ['after', after],
    ] as const) {
      console.log(
        [
          name.padEnd(7),
          figures.bundleKiB.toFixed(1).padStart(14),
          figures.gzipKiB.toFixed(1).padStart(9),
          figures.importMs.toFixed(1).padStart(10),
          figures.importCpuMs.toFixed(1).padStart(14),
          figures.firstReplyMs.toFixed(1).padStart(21),
          figures.offlineFirstReplyMs.toFixed(1).padStart(21),
        ].join(' '),
      );
    }
    console.log('(first reply = import + answering one request, from the start of the import)');
  } finally {
    await bedrock.close();
    await rm(out, { recursive: true, force: true });
  }
}

await main();
