/**
 * The fake speech service (test/support/azure-speech-fake.ts) on a loopback TLS websocket, in a process
 * of its own, for the voice-turn bench: the bench's own process also drives Chromium and reads every
 * websocket frame the page sends as a DevTools event (the microphone's too), which would delay the fake's
 * answers as no real service is delayed. Told what to do over the IPC channel of `fork`:
 * `{ say }` queues a learner's phrase, `{ report }` answers with the timeline and the microphone's
 * bytes so far. Each sentence's first audio byte comes after `--first-byte <ms>`.
 */
import { AzureSpeechFake } from '#support/azure-speech-fake';
import { startAzureSpeechServer } from '#support/azure-speech-server';
import { silentMp3 } from '#support/silent-mp3';
import { throwawayCertificate } from './browser-bench';

export type SpeechCommand = { readonly say: string } | { readonly report: true };

export interface SpeechReport {
  readonly timeline: AzureSpeechFake['timeline'];
  readonly microphoneBytes: number;
}

const firstByteMs = Number(process.argv[process.argv.indexOf('--first-byte') + 1] ?? 0);

class PacedSpeechFake extends AzureSpeechFake {
  override nextSynthesis() {
    return { kind: 'speak' as const, firstByteDelayMs: firstByteMs };
  }
}

const fake = new PacedSpeechFake();
fake.audio = silentMp3(300);
const server = await startAzureSpeechServer(fake, { certificate: throwawayCertificate() });

process.on('message', (command: SpeechCommand) => {
  if ('say' in command) fake.say(command.say);
  else {
    const report: SpeechReport = {
      timeline: fake.timeline,
      microphoneBytes: fake.recognitionSockets().reduce((sum, socket) => sum + socket.audioBytes, 0),
    };
    process.send?.(report);
  }
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
console.log(JSON.stringify({ url: server.url, port: String(server.port) }));
