import type { Messages } from '../messages';
import type { StarMessages } from '../star-messages';

/** Every string the UI shows, in Italian (docs/behaviour.md §2). */
export const messages: Messages = {
  tagline: 'La tua guida personale al cosmo',
  byline: 'di {provider}',
  language: 'Lingua',
  start: 'Inizia la conversazione',
  end: 'Termina la conversazione',
  speed: 'Velocità',
  statusLabel: 'Stato',
  idle: 'Pronto quando vuoi',
  listening: 'In ascolto...',
  thinking: 'Sto pensando...',
  speaking: 'Sto parlando...',
  initializing: 'Preparazione...',
  transcript: 'Conversazione con Astro',
  emptyTitle: 'Chiedi ad Astro tutto sullo spazio',
  emptyHint: 'Premi Inizia la conversazione, poi parla o scrivi la tua domanda.',
  you: 'Tu',
  astro: 'Astro',
  pictureLoading: 'Astro sta disegnando un’immagine...',
  composerLabel: 'Scrivi un messaggio ad Astro',
  composerPlaceholder: 'Scrivi una domanda...',
  send: 'Invia',
  offlineTutor: 'Tutor offline: Astro risponde con le sue lezioni integrate.',
  browserSpeech: 'Viene usata la voce integrata del browser.',
  noSpeech: 'L’input vocale non è disponibile qui: scrivi le tue domande.',
  skip: 'Salta',
  skipLabel: 'Fai smettere di parlare Astro (Esc)',
  replay: 'Riascolta',
  replayLabel: 'Riascolta l’ultima risposta di Astro',
  reconnecting: 'Riconnessione...',
  reconnectingNote: 'Il riconoscimento vocale si sta riconnettendo… Nel frattempo puoi scrivere.',
  microphoneDenied:
    'L’accesso al microfono è bloccato. Consentilo nelle impostazioni del sito del browser (l’icona accanto all’indirizzo), poi avvia una nuova conversazione, oppure scrivi le tue domande qui sotto.',
  noVoice:
    'Il tuo browser non ha una voce per questa lingua: le risposte di Astro vengono mostrate, non lette ad alta voce.',
  feedbackTitle: 'Condividi la tua opinione',
  feedbackIntro: 'Come sta andando la conversazione con Astro?',
  helpfulness: 'Utilità',
  clarity: 'Chiarezza',
  rating: '{aspect}: {n} su {max}',
  suggestion: 'Suggerimento (facoltativo)',
  suggestionPlaceholder: 'Cosa potrebbe fare meglio Astro?',
  cancel: 'Annulla',
  submit: 'Invia',
  sending: 'Invio in corso...',
  copyright: '© 2025 {provider}. Tutti i diritti riservati.',
  contact: 'Contattaci',
  level: 'Livello',
  levelChild: 'Giovane esploratore (8–11)',
  levelTeen: 'Adolescente (12–15)',
  levelAdult: 'Adulto',
  takeYourTime: 'Prenditi il tuo tempo…',
  starsEarned: 'Stelle guadagnate',
};

/** The words for a number of stars, in Italian (docs/behaviour.md §2.23). */
export const stars: StarMessages = {
  count: { one: '{n} stella guadagnata', other: '{n} stelle guadagnate' },
  earned: { one: 'Esatto! {n} stella', other: 'Esatto! {n} stelle' },
};
