import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  readonly url: string;
  /** Anything else the server announced (the local server names its embedded DynamoDB endpoint). */
  readonly details: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * Starts `test/bench/support/<script>` in its own process, so the server under test and autocannon do not share
 * one event loop, and waits for the `{"url": ...}` line it prints when listening.
 */
export function startChildServer(script: string, args: string[] = []): Promise<ChildServer> {
  const file = fileURLToPath(new URL(script, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (!line) return;
      child.removeAllListeners('exit');
      const details = JSON.parse(line) as Record<string, string> & { url: string };
      resolve({
        url: details.url,
        details,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
