import type * as SpeechSdkModule from 'microsoft-cognitiveservices-speech-sdk';
import speechProcessorUrl from 'microsoft-cognitiveservices-speech-sdk/distrib/browser/speech-processor.js?url&no-inline';
import type { SpeechSdk } from './azure-service';

/** MicAudioSource's property for the audio worklet's script URL (SDK common.browser/MicAudioSource). */
const WORKLET_URL_PROPERTY = 'MICROPHONE-WorkletSourceUrl';

/** The microphone with the browser's echo cancellation, so Astro's voice is not heard as the learner's. */
export function echoCancelledMicrophone(): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
}

/** The SDK's audio input for a microphone stream, its worklet loaded from the site's own file (§10.4). */
export function microphoneAudio(sdk: SpeechSdk, microphone: MediaStream): SpeechSdkModule.AudioConfig {
  const audio = sdk.AudioConfig.fromStreamInput(microphone);
  // The SDK would load its audio worklet from a blob: URL, which the site's CSP (script-src 'self')
  // refuses; its own worklet file, served as a same-origin asset, is allowed.
  audio.setProperty(WORKLET_URL_PROPERTY, new URL(speechProcessorUrl, window.location.href).href);
  return audio;
}

/** getUserMedia's refusal (a DOMException, which not every runtime makes an Error). */
export function isMicrophoneDenied(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  return name === 'NotAllowedError' || name === 'SecurityError';
}

/** Turns the microphone off (the SDK leaves a stream it was given running when it closes). */
export function releaseMicrophone(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}
