/**
 * What turns a reply's shown text into the sentences a voice says (docs/behaviour.md §10.10, §17.7,
 * §17.8): the sentence cutter and the speakable text, with the spoken units of every language and the
 * pronunciation lexicon they read. Its own chunk: the controller loads it on Start, alongside the speech
 * engine (within the engine's deadline), so the first page does not carry it.
 */
export { SentenceCutter } from './sentences';
export { speakableText } from '../speech/speakable';
