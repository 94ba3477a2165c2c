/**
 * The slices of the browser's Web Speech API the browser engine uses (see BrowserSpeechEngine): recognition
 * is not in TypeScript's DOM lib, and the window may lack any of them.
 */

/** The slice of the Web Speech API's SpeechRecognition this engine uses (not in TypeScript's DOM lib). */
export interface RecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onstart: (() => void) | null;
  onresult: ((event: RecognitionResultEvent) => void) | null;
  onerror: ((event: { readonly error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export interface RecognitionResultEvent {
  readonly resultIndex: number;
  readonly results: ArrayLike<{ readonly isFinal: boolean; readonly 0: { readonly transcript: string } }>;
}

export type RecognitionConstructor = new () => RecognitionLike;

export interface SpeechWindow {
  SpeechRecognition?: RecognitionConstructor;
  webkitSpeechRecognition?: RecognitionConstructor;
  speechSynthesis?: SpeechSynthesis;
  SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance;
}
