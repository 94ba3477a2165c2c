import type * as SpeechSdkModule from 'microsoft-cognitiveservices-speech-sdk';
import type { SpeechTokenResponse } from '#contract/schemas';
import { SPEECH_TOKEN_DEADLINE_MS } from '../api/speech-token';
import { logError } from '../lib/log';

// What the parts of the Azure engine (token, recognition, synthesis) share about the speech service: the
// SDK's type, how long each step may take, how a recogniser or synthesizer is configured and closed, and
// log text without the token.

export type SpeechSdk = typeof SpeechSdkModule;

/** How long each step of the speech path may take before it is abandoned (nothing may hang). */
export interface SpeechDeadlines {
  /** From sending a reply's SSML to its first audio byte. */
  readonly synthesisFirstByteMs: number;
  /** A reply's whole synthesis: this much, plus synthesisPerCharMs for each character. */
  readonly synthesisMs: number;
  readonly synthesisPerCharMs: number;
  /** The recogniser starting or stopping. */
  readonly recognizerMs: number;
  /** Fetching a fresh token from /api/speechToken. */
  readonly tokenMs: number;
}

export const SPEECH_DEADLINES: SpeechDeadlines = {
  synthesisFirstByteMs: 10_000,
  synthesisMs: 10_000,
  synthesisPerCharMs: 20,
  recognizerMs: 10_000,
  tokenMs: SPEECH_TOKEN_DEADLINE_MS,
};

/**
 * A fresh SpeechConfig carrying `token`, for one recogniser or synthesizer. `serviceHost` replaces the
 * region's host (`ws://127.0.0.1:PORT`, the tests' fake service); the browser leaves it unset and talks to
 * wss://<region>.stt|tts.speech.microsoft.com. `recognizerMs` is the recogniser's stop deadline.
 */
export function speechConfigFor(
  sdk: SpeechSdk,
  token: SpeechTokenResponse,
  { serviceHost, recognizerMs }: { readonly serviceHost?: string; readonly recognizerMs: number },
): SpeechSdkModule.SpeechConfig {
  let config: SpeechSdkModule.SpeechConfig;
  if (serviceHost) {
    config = sdk.SpeechConfig.fromHost(new URL(serviceHost));
    config.authorizationToken = token.token;
    // fromHost assumes a container's v1 routes; the cloud (and the fake of it) serves the SDK's default v2.
    config.setProperty(sdk.PropertyId.SpeechServiceConnection_RecognitionEndpointVersion, '2');
  } else {
    config = sdk.SpeechConfig.fromAuthorizationToken(token.token, token.region);
  }
  // The SDK paces its audio upload with a timer worker loaded from a data: URL, which the site's CSP
  // (script-src 'self', no worker-src) refuses: after the first 5 s, the first stall would leave the
  // upload waiting on a timer that never fires. SDK 1.52 can only load that worker from its data: URL,
  // so it is switched off: the page's own timers pace the upload (docs/behaviour.md §10.4).
  config.setProperty(sdk.PropertyId.WebWorkerLoadType, 'off');
  // Past this, the SDK itself drops a stop the service never answers (our own deadline wraps it too).
  config.setProperty(sdk.PropertyId.Recognizer_StopTimeoutMs, String(recognizerMs));
  return config;
}

/** SDK messages may quote a socket URL, whose query repeats the token: never log it. */
export function withoutToken(text: string): string {
  return text.replace(/(Authorization=|Bearer(%20|\s)+)[^\s&"']+/gi, '$1[token]');
}

/**
 * Closes a recogniser or synthesizer (`what` names it in the log). A failure is logged, never thrown: the
 * SDK throws on a second close, and nothing after a close may be skipped for it.
 */
export function closeQuietly(
  what: string,
  closable: { close(done?: () => void, failed?: (error: string) => void): void },
): void {
  try {
    closable.close(undefined, (error) => logError(`closing the ${what} failed: ${withoutToken(error)}`));
  } catch (error) {
    logError(`closing the ${what} failed`, error);
  }
}
