import { decodeFrame, encodeBinary, encodeText, type SpeechFrame } from '#support/azure-speech-protocol';
import { silentMp3 } from '#support/silent-mp3';

/**
 * A fake of the Azure Speech service that speaks the Speech SDK's own websocket protocol, for recognition
 * (`/speech/recognition/...`) and synthesis (`/cognitiveservices/websocket/v1`). It is transport-free: a
 * transport (the Node websocket server in azure-speech-server.ts, or Playwright's page.routeWebSocket in
 * test/e2e/support/azure-speech-route.ts) hands it each socket through `connect` and each client frame
 * through the session's `receive`.
 *
 * What the service answers (read from the SDK's ServiceRecognizerBase, SpeechServiceRecognizer and
 * SynthesisAdapterBase): every frame echoes the client's current X-RequestId, or the SDK drops it.
 * - recognition: records each `speech.context` the client sends; answers `turn.start`, `speech.startDetected`, `speech.hypothesis {Text, Offset, Duration}`,
 *   `speech.phrase {RecognitionStatus, DisplayText, Offset, Duration}`, `speech.endDetected`, and
 *   `turn.end` when scripted; phrases are only answered once the socket has received the scripted
 *   amount of microphone audio after the test asked for them (so a deaf upload never gets an answer).
 * - synthesis, after `ssml`: `turn.start` (JSON), `response {"audio":{"streamId"}}` (the SDK ignores
 *   audio frames of any other stream), binary `audio` frames with `X-StreamId`, `turn.end`.
 */

/** What a transport gives the fake for one socket. */
export interface SocketPort {
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  close(code: number, reason: string): void;
}

export type SocketKind = 'recognition' | 'synthesis';

export interface SpeechSocketRecord {
  readonly kind: SocketKind;
  readonly path: string;
  /** The URL query (language, format, and the headers the SDK repeats there). */
  readonly query: Readonly<Record<string, string>>;
  /** The bearer token the client presented (header or query), without `Bearer `. */
  readonly token: string | null;
  /** Microphone audio received (payload bytes of `audio` frames after the WAV header). */
  audioBytes: number;
  /** `ssml` documents received on this socket. */
  syntheses: number;
  /**
   * Recognition: each `speech.context` message the client sent (parsed), in order: what it asked of the
   * service for the turn that follows (language, phrase detection and its segmentation silence, …).
   */
  readonly contexts: SpeechContextRecord[];
  closed: boolean;
}

/** The parts of a `speech.context` message the tests read; the rest is kept as sent. */
export interface SpeechContextRecord {
  readonly phraseDetection?: {
    readonly mode?: string;
    readonly [mode: string]: unknown;
  };
  readonly [section: string]: unknown;
}

export interface SsmlRecord {
  readonly ssml: string;
  /** The `speak` element's xml:lang. */
  readonly lang: string | undefined;
  /** The `voice` element's name. */
  readonly voice: string | undefined;
  /** The output format the client asked for in synthesis.context. */
  readonly outputFormat: string | undefined;
}

/** How the fake answers the next `ssml` document. */
export type SynthesisScript =
  | {
      readonly kind: 'speak';
      readonly firstByteDelayMs?: number;
      /**
       * The time between two audio frames, as the service sends a long reply while it synthesizes it
       * (default: every frame at once). The turn ends after the last frame.
       */
      readonly frameGapMs?: number;
      /** false: the audio is sent but the turn never ends. */
      readonly endTurn?: boolean;
    }
  /** Accepts the document and never answers. */
  | { readonly kind: 'silent' }
  /** Closes the socket normally (1000) right after the document, as the service may. */
  | { readonly kind: 'close'; readonly code: number };

interface Utterance {
  readonly hypotheses: readonly string[];
  /** null: hypotheses only (the learner is still speaking). */
  readonly phrase: { readonly status: 'Success' | 'NoMatch'; readonly text: string } | null;
  readonly afterAudioBytes: number;
  readonly endTurn: boolean;
  heardBytes: number;
}

export interface UtteranceOptions {
  /** Hypotheses sent before the phrase, in order. */
  readonly hypotheses?: readonly string[];
  /** Microphone audio the fake must receive after this call before it answers (default 100 ms). */
  readonly afterAudioBytes?: number;
  /** Ends the service turn after the phrase (`speech.endDetected` + `turn.end`). */
  readonly endTurn?: boolean;
}

/** 16 kHz 16-bit mono PCM: 32 bytes a millisecond. */
const PCM_BYTES_PER_MS = 32;
const TICKS_PER_MS = 10_000;
const DEFAULT_AFTER_AUDIO_BYTES = 100 * PCM_BYTES_PER_MS;

/** When the fake did what (epoch milliseconds, sub-millisecond: comparable with a page's clock). */
export interface TimelineEntry {
  readonly event: 'phrase' | 'ssml' | 'first-audio';
  readonly at: number;
}

const clock = () => performance.timeOrigin + performance.now();

export class AzureSpeechFake {
  readonly sockets: SpeechSocketRecord[] = [];
  readonly ssml: SsmlRecord[] = [];
  readonly timeline: TimelineEntry[] = [];
  /** The synthesized audio every reply gets (a real MP3 by default). */
  audio: Uint8Array = silentMp3(700);
  audioChunkBytes = 1024;
  /** Never ends the turn when the client ends its audio stream (a stop that the service leaves hanging). */
  ignoreEndOfStream = false;
  /**
   * Handshake faults, played by the Node transport (a socket Playwright routes is always opened): hold
   * every new handshake unanswered, or refuse these tokens with 401 as the service does expired ones.
   */
  stallHandshakes = false;
  readonly refusedTokens = new Set<string>();
  private readonly utterances: Utterance[] = [];
  private readonly synthesisScripts: SynthesisScript[] = [];
  private readonly sessions = new Set<RecognitionSession | SynthesisSession>();

  /** The transport asks, for a socket about to open, whether the service lets it in. */
  accepts(url: string, headers: Readonly<Record<string, string | undefined>>): boolean {
    return !this.refusedTokens.has(tokenOf(new URL(url), headers) ?? '');
  }

  /** The transport's entry point: a client opened a socket at `url` (headers where the transport has them). */
  connect(url: string, headers: Readonly<Record<string, string | undefined>>, port: SocketPort): FakeSocket {
    const parsed = new URL(url);
    const query = Object.fromEntries(parsed.searchParams);
    const record: SpeechSocketRecord = {
      // Synthesis: /cognitiveservices/websocket/v1; recognition: /stt/speech/universal/v2 or /speech/recognition/….
      kind: parsed.pathname.includes('/cognitiveservices/websocket/') ? 'synthesis' : 'recognition',
      path: parsed.pathname,
      query,
      token: tokenOf(parsed, headers),
      audioBytes: 0,
      syntheses: 0,
      contexts: [],
      closed: false,
    };
    this.sockets.push(record);
    const session =
      record.kind === 'recognition'
        ? new RecognitionSession(this, record, port)
        : new SynthesisSession(this, record, port);
    this.sessions.add(session);
    return {
      receive: (data) => session.receive(decodeFrame(data)),
      closed: () => {
        record.closed = true;
        this.sessions.delete(session);
      },
    };
  }

  /** The learner says `text`: hypotheses, then the phrase, once enough audio has arrived. */
  say(text: string, options: UtteranceOptions = {}): void {
    this.queue(options, { status: 'Success', text });
  }

  /** The learner is heard but nothing is recognised (`RecognitionStatus: NoMatch`). */
  noMatch(options: UtteranceOptions = {}): void {
    this.queue(options, { status: 'NoMatch', text: '' });
  }

  /** Only hypotheses: the learner is still speaking. */
  hypothesize(...hypotheses: string[]): void {
    this.queue({ hypotheses }, null);
  }

  /** How the next `ssml` documents are answered, in order; unscripted ones are spoken at once. */
  scriptSynthesis(...scripts: SynthesisScript[]): void {
    this.synthesisScripts.push(...scripts);
  }

  /** Closes every open recognition socket with `code` (1007: the service refusing the stream). */
  dropRecognition(code = 1007, reason = 'fake service closed the recognition socket'): void {
    for (const session of this.sessions)
      if (session instanceof RecognitionSession) session.port.close(code, reason);
  }

  recognitionSockets(): SpeechSocketRecord[] {
    return this.sockets.filter((socket) => socket.kind === 'recognition');
  }

  synthesisSockets(): SpeechSocketRecord[] {
    return this.sockets.filter((socket) => socket.kind === 'synthesis');
  }

  /** Utterances not answered yet. */
  get pendingUtterances(): number {
    return this.utterances.length;
  }

  /** @internal the recognition sessions' view of the script. */
  heard(session: RecognitionSession, bytes: number): void {
    for (const utterance of this.utterances) utterance.heardBytes += bytes;
    for (
      let next = this.utterances[0];
      next && next.heardBytes >= next.afterAudioBytes;
      next = this.utterances[0]
    ) {
      this.utterances.shift();
      session.answer(next);
    }
  }

  /** @internal */
  nextSynthesis(): SynthesisScript {
    return this.synthesisScripts.shift() ?? { kind: 'speak' };
  }

  private queue(options: UtteranceOptions, phrase: Utterance['phrase']): void {
    this.utterances.push({
      hypotheses: options.hypotheses ?? [],
      phrase,
      afterAudioBytes: options.afterAudioBytes ?? DEFAULT_AFTER_AUDIO_BYTES,
      endTurn: options.endTurn ?? false,
      heardBytes: 0,
    });
  }
}

/** The bearer token of a socket: the Authorization header in Node, repeated in the query by the SDK. */
function tokenOf(url: URL, headers: Readonly<Record<string, string | undefined>>): string | null {
  const authorization = headers.authorization ?? url.searchParams.get('Authorization');
  return authorization?.replace(/^Bearer\s+/i, '') ?? null;
}

/** What a transport drives for one socket. */
export interface FakeSocket {
  receive(data: string | Uint8Array): void;
  closed(): void;
}

const ticks = (bytes: number) => Math.round((bytes / PCM_BYTES_PER_MS) * TICKS_PER_MS);

class RecognitionSession {
  private requestId = '';
  private turnRequestId = '';
  /** Audio received in the current service turn: offsets are relative to the turn. */
  private turnBytes = 0;

  constructor(
    private readonly fake: AzureSpeechFake,
    private readonly record: SpeechSocketRecord,
    readonly port: SocketPort,
  ) {}

  receive(frame: SpeechFrame): void {
    if (frame.requestId) this.requestId = frame.requestId;
    if (frame.path.toLowerCase() === 'speech.context' && frame.text) {
      this.record.contexts.push(JSON.parse(frame.text) as SpeechContextRecord);
    }
    if (frame.path.toLowerCase() !== 'audio' || !frame.binary) return;
    // The first audio frame of a request carries the WAV header (Content-Type audio/x-wav), not speech.
    if (frame.headers['content-type']?.toLowerCase() === 'audio/x-wav') return;
    if (frame.binary.byteLength === 0) {
      // An empty audio frame ends the stream (the client is stopping): the service ends the turn.
      if (!this.fake.ignoreEndOfStream && this.turnRequestId === this.requestId) {
        this.send('speech.endDetected', { Offset: ticks(this.turnBytes) });
        this.send('turn.end', {});
      }
      return;
    }
    if (this.turnRequestId !== this.requestId) {
      this.turnRequestId = this.requestId;
      this.turnBytes = 0;
      this.send('turn.start', { context: { serviceTag: 'fake-service-tag' } });
    }
    this.record.audioBytes += frame.binary.byteLength;
    this.turnBytes += frame.binary.byteLength;
    this.fake.heard(this, frame.binary.byteLength);
  }

  answer(utterance: Utterance): void {
    const duration = Math.min(this.turnBytes, utterance.afterAudioBytes);
    const offset = ticks(this.turnBytes - duration);
    this.send('speech.startDetected', { Offset: offset });
    for (const text of utterance.hypotheses) {
      this.send('speech.hypothesis', { Text: text, Offset: offset, Duration: ticks(duration) });
    }
    if (!utterance.phrase) return;
    const { status, text } = utterance.phrase;
    if (status === 'Success') this.fake.timeline.push({ event: 'phrase', at: clock() });
    this.send('speech.phrase', {
      RecognitionStatus: status,
      ...(status === 'Success' ? { DisplayText: text } : {}),
      Offset: offset,
      Duration: ticks(duration),
    });
    if (utterance.endTurn) {
      this.send('speech.endDetected', { Offset: offset + ticks(duration) });
      this.send('turn.end', {});
    }
  }

  private send(path: string, body: object): void {
    this.port.sendText(encodeText(path, this.requestId, JSON.stringify(body)));
  }
}

class SynthesisSession {
  private outputFormat: string | undefined;

  constructor(
    private readonly fake: AzureSpeechFake,
    private readonly record: SpeechSocketRecord,
    readonly port: SocketPort,
  ) {}

  receive(frame: SpeechFrame): void {
    const path = frame.path.toLowerCase();
    if (path === 'synthesis.context' && frame.text) {
      const context = JSON.parse(frame.text) as { synthesis?: { audio?: { outputFormat?: string } } };
      this.outputFormat = context.synthesis?.audio?.outputFormat;
    }
    if (path !== 'ssml' || frame.text === undefined) return;
    this.record.syntheses += 1;
    this.fake.timeline.push({ event: 'ssml', at: clock() });
    this.fake.ssml.push({
      ssml: frame.text,
      lang: /<speak\b[^>]*\bxml:lang="([^"]*)"/.exec(frame.text)?.[1],
      voice: /<voice\b[^>]*\bname="([^"]*)"/.exec(frame.text)?.[1],
      outputFormat: this.outputFormat,
    });
    const script = this.fake.nextSynthesis();
    if (script.kind === 'silent') return;
    if (script.kind === 'close') {
      this.port.close(script.code, 'fake service closed the synthesis socket');
      return;
    }
    const requestId = frame.requestId;
    const streamId = `stream${this.record.syntheses}`;
    this.port.sendText(
      encodeText('turn.start', requestId, JSON.stringify({ context: { serviceTag: 'fake' } })),
    );
    this.port.sendText(encodeText('response', requestId, JSON.stringify({ audio: { streamId } })));
    const audio = this.fake.audio;
    const chunk = this.fake.audioChunkBytes;
    const headers = {
      Path: 'audio',
      'X-RequestId': requestId,
      'X-StreamId': streamId,
      'Content-Type': 'audio/mpeg',
    };
    const frames: Uint8Array[] = [];
    for (let start = 0; start < audio.byteLength; start += chunk) {
      frames.push(audio.subarray(start, start + chunk));
    }
    // Synchronous unless the frames are paced: then each waits its gap.
    const speak = async () => {
      if (this.record.closed) return;
      this.fake.timeline.push({ event: 'first-audio', at: clock() });
      for (const [index, frame] of frames.entries()) {
        if (index > 0 && script.frameGapMs) {
          await new Promise((resolve) => setTimeout(resolve, script.frameGapMs));
          if (this.record.closed) return;
        }
        this.port.sendBinary(encodeBinary(headers, frame));
      }
      if (script.endTurn !== false) this.port.sendText(encodeText('turn.end', requestId, '{}'));
    };
    if (script.firstByteDelayMs) setTimeout(() => void speak(), script.firstByteDelayMs);
    else void speak();
  }
}
