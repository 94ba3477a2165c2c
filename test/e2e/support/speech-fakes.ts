/**
 * Scripted stand-ins for the browser's speech APIs, installed with page.addInitScript before the app
 * loads: `SpeechRecognition`/`webkitSpeechRecognition` (the test says what was heard), `speechSynthesis`
 * (records each utterance's text, lang and rate, and fires its end event) and `HTMLMediaElement.play`
 * (records the element, its source and playbackRate). Everything the app did is readable from
 * `window.__speech`.
 */

export interface RecognitionEvent {
  readonly event: 'start' | 'stop' | 'abort';
  readonly lang: string;
  readonly continuous: boolean;
  readonly interimResults: boolean;
}

export interface SpokenUtterance {
  readonly text: string;
  readonly lang: string;
  readonly rate: number;
}

export interface MediaPlay {
  readonly src: string;
  readonly playbackRate: number;
  readonly elementIndex: number;
}

export interface SpeechLog {
  readonly recognition: RecognitionEvent[];
  readonly utterances: SpokenUtterance[];
  readonly plays: MediaPlay[];
}

/** Runs inside the page. Kept self-contained: it is serialised and injected as is. */
export function installSpeechFakes(): void {
  type Handler = ((event: unknown) => void) | null;
  const log: SpeechLog = { recognition: [], utterances: [], plays: [] };
  const instances: FakeRecognition[] = [];
  /** The recogniser the app started last. */
  const current = (): FakeRecognition | undefined => instances.at(-1);
  /** While true, utterances keep "speaking" until the test calls finishSpeaking(). */
  let holdSpeech = false;
  const pendingEnds: (() => void)[] = [];

  class FakeRecognition {
    continuous = false;
    interimResults = false;
    lang = '';
    onresult: Handler = null;
    onerror: Handler = null;
    onend: Handler = null;
    running = false;
    private record(event: RecognitionEvent['event']) {
      log.recognition.push({
        event,
        lang: this.lang,
        continuous: this.continuous,
        interimResults: this.interimResults,
      });
    }
    start() {
      if (this.running) throw new DOMException('recognition has already started', 'InvalidStateError');
      this.running = true;
      if (!instances.includes(this)) instances.push(this);
      this.record('start');
    }
    stop() {
      this.finish('stop');
    }
    abort() {
      this.finish('abort');
    }
    private finish(event: 'stop' | 'abort') {
      this.record(event);
      if (!this.running) return;
      this.running = false;
      setTimeout(() => this.onend?.(new Event('end')), 0);
    }
  }

  function emit(text: string, isFinal: boolean): boolean {
    const recognition = current();
    if (!recognition || !recognition.running || !recognition.onresult) return false;
    const result = Object.assign([{ transcript: text, confidence: 0.9 }], { isFinal });
    recognition.onresult({ resultIndex: 0, results: [result] });
    return true;
  }

  const synthesis = {
    speaking: false,
    pending: false,
    paused: false,
    onvoiceschanged: null,
    getVoices: () => [],
    speak(utterance: SpeechSynthesisUtterance) {
      log.utterances.push({ text: utterance.text, lang: utterance.lang, rate: utterance.rate });
      synthesis.speaking = true;
      const end = () => {
        synthesis.speaking = false;
        utterance.dispatchEvent(new Event('end'));
      };
      if (holdSpeech) pendingEnds.push(end);
      else setTimeout(end, 20);
    },
    cancel() {
      synthesis.speaking = false;
    },
    pause() {},
    resume() {},
    addEventListener() {},
    removeEventListener() {},
  };

  const elements: HTMLMediaElement[] = [];
  HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
    if (!elements.includes(this)) elements.push(this);
    log.plays.push({ src: this.src, playbackRate: this.playbackRate, elementIndex: elements.indexOf(this) });
    setTimeout(() => this.dispatchEvent(new Event('ended')), 10);
    return Promise.resolve();
  };

  const speechWindow = window as unknown as Record<string, unknown>;
  speechWindow.SpeechRecognition = FakeRecognition;
  speechWindow.webkitSpeechRecognition = FakeRecognition;
  Object.defineProperty(window, 'speechSynthesis', { value: synthesis, configurable: true });
  speechWindow.__speech = {
    log,
    interim: (text: string) => emit(text, false),
    say: (text: string) => emit(text, true),
    /** The browser ending recognition on its own (Chrome does after silence). */
    endByBrowser: () => {
      const recognition = current();
      if (!recognition) return;
      recognition.running = false;
      recognition.onend?.(new Event('end'));
    },
    isListening: () => current()?.running === true,
    holdSpeech: (hold: boolean) => {
      holdSpeech = hold;
    },
    finishSpeaking: () => {
      for (const end of pendingEnds.splice(0)) end();
    },
  };
}
