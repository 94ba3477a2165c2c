// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AzureSpeechEngine } from '#web/speech/azure-engine';
import { withoutToken } from '#web/speech/azure-service';
import { ssmlFor } from '#web/speech/ssml';
import type { AudioOutput } from '#web/speech/audio-player';
import type { ListeningHealth } from '#web/speech/engine';
import { scriptedMicrophone, scriptedSdk } from './scripted-speech-sdk';

// The engine's speech path runs against the real SDK and the fake service in azure-engine-recognition and
// azure-engine-synthesis tests. What stays here: the SSML text, and the browser microphone path, which
// Node cannot run for real (no MediaStream, no AudioContext; the browser tests run it in Chromium).

const silentOutput: AudioOutput = {
  play: async () => undefined,
  setRate: () => undefined,
  stop: () => undefined,
};

function engineWith(getMicrophone: () => Promise<MediaStream>) {
  const scripted = scriptedSdk();
  const engine = new AzureSpeechEngine(scripted.sdk, {
    token: { token: 't', region: 'eastus', expiresAt: new Date(Date.now() + 600_000).toISOString() },
    fetchToken: async () => null,
    player: silentOutput,
    getMicrophone,
    reconnectDelaysMs: [1],
  });
  return { engine, ...scripted };
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('the Azure engine on the microphone', () => {
  it("gives the SDK the echo-cancelled microphone through the SDK's own same-origin worklet file", async () => {
    const mic = scriptedMicrophone();
    const { engine, audioConfigs } = engineWith(async () => mic.stream);
    await engine.startListening('es-ES', {
      onInterim: () => undefined,
      onFinal: () => undefined,
      onHealth: () => undefined,
    });
    expect(audioConfigs[0]?.stream).toBe(mic.stream);
    // Same-origin, so a strict CSP (script-src 'self') does not block the microphone pipeline.
    expect(audioConfigs[0]?.properties['MICROPHONE-WorkletSourceUrl']).toMatch(
      new RegExp(`^${window.location.origin}/.*speech-processor[^/]*\\.js(\\?|$)`),
    );
    engine.dispose();
  });

  it('keeps the one microphone stream for a rebuilt recogniser, and releases it when listening stops', async () => {
    const mic = scriptedMicrophone();
    const getMicrophone = vi.fn(async () => mic.stream);
    const { engine, recognizers, audioConfigs } = engineWith(getMicrophone);
    const health: ListeningHealth[] = [];
    await engine.startListening('en-US', {
      onInterim: () => undefined,
      onFinal: () => undefined,
      onHealth: (value) => health.push(value),
    });
    recognizers[0]?.canceled?.(null, { reason: 0, errorCode: 4, errorDetails: 'websocket error code: 1007' });
    await vi.waitFor(() => expect(recognizers).toHaveLength(2));
    expect(health).toEqual(['listening', 'reconnecting', 'listening']);
    expect(getMicrophone).toHaveBeenCalledTimes(1);
    expect(audioConfigs.map((audio) => audio.stream)).toEqual([mic.stream, mic.stream]);
    expect(mic.stopped).toEqual([]);

    await engine.stopListening();
    expect(recognizers.map((recognizer) => recognizer.calls)).toEqual([
      ['start', 'close'],
      ['start', 'stop', 'close'],
    ]);
    expect(mic.stopped).toEqual(['track']);
    engine.dispose();
  });

  it('releases a microphone granted after listening was already stopped', async () => {
    const mic = scriptedMicrophone();
    let grant: ((stream: MediaStream) => void) | undefined;
    const { engine, recognizers } = engineWith(() => new Promise((resolve) => (grant = resolve)));
    const listening = engine.startListening('en-US', {
      onInterim: () => undefined,
      onFinal: () => undefined,
      onHealth: () => undefined,
    });
    // The permission prompt is open.
    await vi.waitFor(() => expect(grant).toBeDefined());
    await engine.stopListening();
    grant?.(mic.stream);
    await listening;
    expect(mic.stopped).toEqual(['track']);
    expect(recognizers).toHaveLength(0);
    engine.dispose();
  });

  it('reports a denied microphone once, and never builds a recogniser', async () => {
    const getMicrophone = vi.fn(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    const { engine, recognizers } = engineWith(getMicrophone);
    const health: ListeningHealth[] = [];
    await engine.startListening('en-US', {
      onInterim: () => undefined,
      onFinal: () => undefined,
      onHealth: (value) => health.push(value),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(health).toEqual(['microphone_denied']);
    expect(getMicrophone).toHaveBeenCalledTimes(1);
    expect(recognizers).toHaveLength(0);
    engine.dispose();
  });
});

describe('the Azure engine reconnecting (docs/behaviour.md §10.5, §9.9)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a microphone another app holds after 0.5 s, 1 s, 2 s, 4 s, then every 10 s, and starts over once it listens', async () => {
    const mic = scriptedMicrophone();
    let busy = true;
    const getMicrophone = vi.fn(async () => {
      if (busy) throw new DOMException('Could not start audio source', 'NotReadableError');
      return mic.stream;
    });
    const { sdk, recognizers } = scriptedSdk();
    // The engine's own backoff: no reconnectDelaysMs.
    const engine = new AzureSpeechEngine(sdk, {
      token: { token: 't', region: 'eastus', expiresAt: new Date(Date.now() + 600_000).toISOString() },
      fetchToken: async () => null,
      player: silentOutput,
      getMicrophone,
    });
    const health: ListeningHealth[] = [];
    await engine.startListening('en-US', {
      onInterim: () => undefined,
      onFinal: () => undefined,
      onHealth: (value) => health.push(value),
    });
    expect(getMicrophone).toHaveBeenCalledTimes(1);

    for (const [index, wait] of [500, 1000, 2000, 4000, 10_000, 10_000].entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(getMicrophone).toHaveBeenCalledTimes(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(getMicrophone).toHaveBeenCalledTimes(index + 2);
    }
    expect(health).toEqual(['reconnecting']);

    // Free again: the next try listens, and after the next failure the wait is 0.5 s again.
    busy = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(health).toEqual(['reconnecting', 'listening']);
    recognizers[0]?.canceled?.(null, { reason: 0, errorCode: 4, errorDetails: 'websocket error code: 1007' });
    await vi.advanceTimersByTimeAsync(499);
    expect(recognizers).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(recognizers).toHaveLength(2);
    expect(health).toEqual(['reconnecting', 'listening', 'reconnecting', 'listening']);
    engine.dispose();
  });
});

/** Every code point XML 1.0 forbids in a document, lone surrogates included. */
function forbiddenInXml(): string[] {
  const units: number[] = [];
  for (let code = 0x0; code <= 0x1f; code += 1)
    if (code !== 0x9 && code !== 0xa && code !== 0xd) units.push(code);
  units.push(0xfffe, 0xffff);
  for (let code = 0xd800; code <= 0xdfff; code += 1) units.push(code);
  return units.map((code) => String.fromCharCode(code));
}

/** A sentence with no names in it: one text segment. */
const plain = (text: string) => [{ kind: 'text' as const, text }];

function parsesAsXml(document: string): boolean {
  const parsed = new DOMParser().parseFromString(document, 'application/xml');
  return parsed.getElementsByTagName('parsererror').length === 0;
}

describe('SSML for a reply', () => {
  it('names the locale and its voice and escapes markup characters', () => {
    const ssml = ssmlFor(plain('Saturn & "rings" <3 \''), 'de-DE');
    expect(ssml).toBe(
      '<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="de-DE">' +
        '<voice name="de-DE-KatjaNeural">Saturn &#38; &#34;rings&#34; &#60;3 &#39;</voice></speak>',
    );
    expect(parsesAsXml(ssml)).toBe(true);
  });

  it('drops every character XML forbids and keeps the rest of the reply', () => {
    const forbidden = forbiddenInXml();
    expect(forbidden).toHaveLength(29 + 2 + 2048);
    // The check can fail: a document with any of them is not XML.
    expect(forbidden.filter((char) => parsesAsXml(`<a>${char}</a>`))).toEqual([]);
    for (const char of forbidden) {
      const ssml = ssmlFor(plain(`Mars${char} is red`), 'en-US');
      expect(ssml).toContain('>Mars is red</voice>');
      expect(parsesAsXml(ssml)).toBe(true);
    }
  });

  it('keeps tabs, line breaks, paired surrogates and every other character', () => {
    const text = 'Tab\there\nand\r\nthere 🪐 ✨ \uFFFD 土星 زحل';
    expect(ssmlFor(plain(text), 'en-US')).toContain(`>${text}</voice>`);
    expect(parsesAsXml(ssmlFor(plain(text), 'en-US'))).toBe(true);
  });
});

describe('what the engine logs', () => {
  it('never includes the token an SDK message may quote from a socket URL', () => {
    const quoted =
      'Unable to contact server. wss://eastus.stt.speech.microsoft.com/stt/speech/universal/v2?language=en-US' +
      '&Authorization=Bearer%20eyJhbGciOi.secret.part&X-ConnectionId=abc; header Authorization: Bearer eyJsecond.token';
    const logged = withoutToken(quoted);
    expect(logged).not.toMatch(/eyJ/);
    expect(logged).toContain('language=en-US');
    expect(logged).toContain('X-ConnectionId=abc');
    // Exactly the token goes, whatever separates it from its label, and the label stays.
    expect(withoutToken('?Authorization=abc.def&lang=en')).toBe('?Authorization=[token]&lang=en');
    expect(withoutToken('Authorization: Bearer  abc.def done')).toBe('Authorization: Bearer  [token] done');
    expect(withoutToken('Bearer%20%20abc.def')).toBe('Bearer%20%20[token]');
  });
});
