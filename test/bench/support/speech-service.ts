import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SpeechCommand, SpeechReport } from './serve-speech';

export interface SpeechService {
  /** The loopback port Chromium's speech hosts are mapped to (launchVoiceChromium's speechPort). */
  readonly port: number;
  /** The learner says `text` (the fake answers once enough microphone audio has come). */
  say(text: string): void;
  /** The fake's timeline and the microphone bytes it has received so far. */
  report(): Promise<SpeechReport>;
  stop(): Promise<void>;
}

/**
 * Starts the fake speech service in its own process (test/bench/support/serve-speech.ts), its sentences'
 * first audio byte after `firstByteMs`, and waits until it listens.
 */
export function startSpeechService(firstByteMs: number): Promise<SpeechService> {
  const file = fileURLToPath(new URL('./serve-speech.ts', import.meta.url));
  const child = fork(file, ['--first-byte', String(firstByteMs)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const send = (command: SpeechCommand) => child.send(command);
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`the fake speech service exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (!line) return;
      child.stdout?.removeAllListeners('data');
      child.removeAllListeners('exit');
      const { port } = JSON.parse(line) as { port: string };
      resolve({
        port: Number(port),
        say: (text) => send({ say: text }),
        report: () =>
          new Promise<SpeechReport>((answered) => {
            child.once('message', (report) => answered(report as SpeechReport));
            send({ report: true });
          }),
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.disconnect();
          }),
      });
    });
  });
}
