/**
 * The web app's audio player and the audio it plays, for a page: bundled by the WebKit test
 * (bundleForPage) and run in the app's page, where they stand on the browser's own media APIs.
 */
import { AudioPlayer } from '#web/speech/audio-player';
import { SpeechAudio } from '#web/speech/speech-audio';

(window as unknown as { __audioPlayer: unknown }).__audioPlayer = { AudioPlayer, SpeechAudio };
