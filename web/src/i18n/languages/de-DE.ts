import type { Messages } from '../messages';
import type { StarMessages } from '../star-messages';

/** Every string the UI shows, in German (docs/behaviour.md §2). */
export const messages: Messages = {
  tagline: 'Dein persönlicher Reiseführer durch den Kosmos',
  byline: 'von {provider}',
  language: 'Sprache',
  start: 'Gespräch starten',
  end: 'Gespräch beenden',
  speed: 'Tempo',
  statusLabel: 'Status',
  idle: 'Bereit, wenn du es bist',
  listening: 'Hört zu...',
  thinking: 'Denkt nach...',
  speaking: 'Spricht...',
  initializing: 'Wird vorbereitet...',
  transcript: 'Gespräch mit Astro',
  emptyTitle: 'Frag Astro alles über den Weltraum',
  emptyHint: 'Tippe auf Gespräch starten und sprich oder schreibe deine Frage.',
  you: 'Du',
  astro: 'Astro',
  pictureLoading: 'Astro zeichnet ein Bild...',
  composerLabel: 'Nachricht an Astro schreiben',
  composerPlaceholder: 'Schreib eine Frage...',
  send: 'Senden',
  offlineTutor: 'Offline-Tutor: Astro antwortet mit seinen eingebauten Lektionen.',
  browserSpeech: 'Die eingebaute Stimme deines Browsers wird verwendet.',
  noSpeech: 'Spracheingabe ist hier nicht verfügbar: schreib deine Fragen.',
  skip: 'Überspringen',
  skipLabel: 'Astro nicht weitersprechen lassen (Esc)',
  replay: 'Wiederholen',
  replayLabel: 'Astros letzte Antwort noch einmal hören',
  reconnecting: 'Verbinde neu...',
  reconnectingNote: 'Die Spracherkennung verbindet sich neu… Du kannst so lange schreiben.',
  microphoneDenied:
    'Der Zugriff aufs Mikrofon ist blockiert. Erlaube ihn in den Website-Einstellungen deines Browsers (das Symbol neben der Adresse) und starte ein neues Gespräch, oder schreib deine Fragen unten.',
  noVoice:
    'Dein Browser hat keine Stimme für diese Sprache: Astros Antworten werden angezeigt, aber nicht vorgelesen.',
  feedbackTitle: 'Teile deine Meinung',
  feedbackIntro: 'Wie läuft dein Gespräch mit Astro?',
  helpfulness: 'Hilfreich',
  clarity: 'Verständlichkeit',
  rating: '{aspect}: {n} von {max}',
  suggestion: 'Vorschlag (optional)',
  suggestionPlaceholder: 'Was könnte Astro besser machen?',
  cancel: 'Abbrechen',
  submit: 'Senden',
  sending: 'Wird gesendet...',
  copyright: '© 2025 {provider}. Alle Rechte vorbehalten.',
  contact: 'Kontakt',
  level: 'Stufe',
  levelChild: 'Junge Entdecker (8–11)',
  levelTeen: 'Jugendliche (12–15)',
  levelAdult: 'Erwachsene',
  takeYourTime: 'Lass dir Zeit…',
  starsEarned: 'Verdiente Sterne',
};

/** The words for a number of stars, in German (docs/behaviour.md §2.23). */
export const stars: StarMessages = {
  count: { one: '{n} verdienter Stern', other: '{n} verdiente Sterne' },
  earned: { one: 'Richtig! {n} Stern', other: 'Richtig! {n} Sterne' },
};
