import { fetchSpeechToken } from '../api/speech-token';
import { logError } from '../lib/log';
import type { AudioPlayer } from './audio-player';
import { BrowserSpeechEngine } from './browser-engine';
import type { SpeechEngine } from './engine';

/**
 * Azure Speech when the server hands out a token, otherwise the browser's own speech (no key configured,
 * or the token service or SDK failing): the conversation always gets an engine.
 */
export async function selectSpeechEngine(player: AudioPlayer): Promise<SpeechEngine> {
  try {
    // A token service that never answers must not hold Start: fetchSpeechToken gives up after
    // SPEECH_TOKEN_DEADLINE_MS, and the browser engine is used.
    const token = await fetchSpeechToken();
    if (token) {
      // The SDK module is imported here, on Start, so it is its own chunk.
      const { createAzureEngine } = await import('./azure-engine');
      return await createAzureEngine({ token, fetchToken: (signal) => fetchSpeechToken(signal), player });
    }
  } catch (error) {
    logError('Azure Speech is unavailable; using the browser speech engine', error);
  }
  return new BrowserSpeechEngine();
}
