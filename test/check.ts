/**
 * `npm run check`: the whole suite, as fast as two cores allow (docs/testing.md, "How long it takes").
 * First the browsers (test/e2e/browsers.sh: installs what is missing, or stops at once saying how); then
 * every step at once, each in a process group of its own: lint, typecheck, the teaching evals, the unit
 * and integration tests, and the web build followed by the browser tests. Together they keep both cores
 * busy (the browser tests are about half of the CPU: docs/testing.md, "How long it takes"). Each step's
 * output is printed whole when it ends, so the steps do not interleave; the first failure ends the others
 * and the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';

interface Step {
  readonly name: string;
  /** npm scripts run one after the other (package.json). */
  readonly scripts: readonly string[];
}

const BROWSERS: Step = { name: 'browsers', scripts: ['test:browsers'] };

/** The browser tests first: they are the longest, and the rest fills their waits. */
const STEPS: readonly Step[] = [
  { name: 'browser tests', scripts: ['build', 'test:e2e:run'] },
  { name: 'unit and integration tests', scripts: ['test:unit'] },
  { name: 'lint', scripts: ['lint'] },
  { name: 'typecheck', scripts: ['typecheck'] },
  { name: 'teaching evals', scripts: ['eval'] },
];

const running = new Set<ChildProcess>();

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** Runs one npm script in a process group of its own; resolves with its exit code and output. */
function runScript(script: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

async function runStep(step: Step): Promise<{ step: Step; ok: boolean; output: string; took: string }> {
  const started = performance.now();
  let output = '';
  for (const script of step.scripts) {
    const result = await runScript(script);
    output += result.output;
    if (result.code !== 0) return { step, ok: false, output, took: seconds(started) };
  }
  return { step, ok: true, output, took: seconds(started) };
}

/** Ends every step still running, with everything it started. */
function stopAll(): void {
  for (const child of running) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopAll();
    console.log(`\nnpm run check stopped (${signal}): every step ended, with the browsers it started.`);
    process.exit(130);
  });
}

const started = performance.now();
const browsers = await runStep(BROWSERS);
process.stdout.write(browsers.output);
if (!browsers.ok) process.exit(1);

console.log(`Running at once: ${STEPS.map((step) => step.name).join(', ')}.`);
const pending = new Map(STEPS.map((step) => [step.name, runStep(step)]));
let failed = false;
while (pending.size > 0) {
  const done = await Promise.race(pending.values());
  pending.delete(done.step.name);
  process.stdout.write(`\n── ${done.step.name}: ${done.ok ? 'passed' : 'FAILED'} in ${done.took} ──\n`);
  process.stdout.write(done.output);
  if (!done.ok) {
    failed = true;
    stopAll();
    break;
  }
}
console.log(`\nnpm run check ${failed ? 'failed' : 'passed'} in ${seconds(started)}.`);
process.exit(failed ? 1 : 0);
