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
  /** The name of the voice the app chose, null when it chose none. */
  readonly voice: string | null;
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
  /**
   * finishSpeaking() lets what the app is saying play out, then holding resumes for the next reply. An
   * app may hand the browser one utterance at a time (the next in a later task than the last one's end),
   * so the release lasts until a task after an end finds nothing more queued.
   */
  let releasing = false;
  const pendingEnds: (() => void)[] = [];
  /** While true, the browser refuses the microphone (error 'not-allowed' at every start). */
  let refuseMicrophone = false;
  /** One voice per language the app speaks, as a desktop browser has; a test may take them away. */
  const allVoices = [
    'en-US',
    'es-ES',
    'pt-BR',
    'fr-FR',
    'de-DE',
    'it-IT',
    'ar-SA',
    'zh-CN',
    'ja-JP',
    'he-IL',
  ].map((lang) => ({
    lang,
    name: `Fake ${lang}`,
    default: lang === 'en-US',
    localService: true,
    voiceURI: lang,
  }));
  let voices = allVoices;

  class FakeRecognition {
    continuous = false;
    interimResults = false;
    lang = '';
    onstart: Handler = null;
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
      if (refuseMicrophone) {
        setTimeout(() => {
          this.onerror?.({ error: 'not-allowed' });
          this.running = false;
          this.onend?.(new Event('end'));
        }, 0);
      } else {
        setTimeout(() => this.onstart?.(new Event('start')), 0);
      }
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
    getVoices: () => voices,
    speak(utterance: SpeechSynthesisUtterance) {
      log.utterances.push({
        text: utterance.text,
        lang: utterance.lang,
        rate: utterance.rate,
        voice: (utterance.voice as { name?: string } | null)?.name ?? null,
      });
      synthesis.speaking = true;
      queue.push(utterance);
      // The browser speaks its queue in order: each utterance starts when the one before it ends.
      if (queue.length === 1) startHead();
    },
    cancel() {
      synthesis.speaking = false;
      const dropped = queue.splice(0);
      pendingEnds.splice(0);
      for (const utterance of dropped) {
        utterance.dispatchEvent(Object.assign(new Event('error'), { error: 'canceled' }));
      }
    },
    pause() {},
    resume() {},
    addEventListener() {},
    removeEventListener() {},
  };

  // The fake voices are plain objects, which the real `voice` setter refuses: hold them beside the utterance.
  const chosenVoices = new WeakMap<SpeechSynthesisUtterance, unknown>();
  Object.defineProperty(SpeechSynthesisUtterance.prototype, 'voice', {
    configurable: true,
    get(this: SpeechSynthesisUtterance) {
      return chosenVoices.get(this) ?? null;
    },
    set(this: SpeechSynthesisUtterance, voice: unknown) {
      chosenVoices.set(this, voice);
    },
  });
  const queue: SpeechSynthesisUtterance[] = [];
  function startHead() {
    const utterance = queue[0];
    if (!utterance) return;
    setTimeout(() => {
      if (queue[0] !== utterance) return;
      utterance.dispatchEvent(new Event('start'));
      const end = () => {
        if (queue[0] !== utterance) return;
        queue.shift();
        synthesis.speaking = queue.length > 0;
        utterance.dispatchEvent(new Event('end'));
        startHead();
        // After the app's own zero-delay hand-over of its next sentence, if any (timers run in order).
        if (releasing) setTimeout(() => (releasing = queue.length > 0), 0);
      };
      if (holdSpeech && !releasing) pendingEnds.push(end);
      else setTimeout(end, 20);
    }, 0);
  }

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
    /** The recogniser fails (e.g. 'network') and the browser ends it. */
    failRecognition: (error: string) => {
      const recognition = current();
      if (!recognition || !recognition.running) return false;
      recognition.onerror?.({ error });
      recognition.running = false;
      recognition.onend?.(new Event('end'));
      return true;
    },
    refuseMicrophone: (refuse: boolean) => {
      refuseMicrophone = refuse;
    },
    /** Takes the browser's voices away (as Firefox on Linux without speech voices), or gives them back. */
    setVoices: (present: boolean) => {
      voices = present ? allVoices : [];
    },
    holdSpeech: (hold: boolean) => {
      holdSpeech = hold;
    },
    finishSpeaking: () => {
      releasing = queue.length > 0;
      for (const end of pendingEnds.splice(0)) end();
    },
  };
}
