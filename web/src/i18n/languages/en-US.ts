import type { StarMessages } from '../star-messages';

/**
 * Every string the UI shows, in English: those docs/behaviour.md §2 quotes. Its keys are the UI's
 * (`Messages` in ../messages.ts): every other language has exactly these, a missing or an extra one is
 * a compile error. English rides in the first load: it is the fallback (docs/behaviour.md §2.24).
 */
export const messages = {
  tagline: 'Your Personal Guide to the Cosmos',
  byline: 'by {provider}',
  language: 'Language',
  start: 'Start Conversation',
  end: 'End Conversation',
  speed: 'Speed',
  statusLabel: 'Status',
  idle: 'Ready when you are',
  listening: 'Listening...',
  thinking: 'Thinking...',
  speaking: 'Speaking...',
  initializing: 'Getting ready...',
  transcript: 'Conversation with Astro',
  emptyTitle: 'Ask Astro anything about space',
  emptyHint: 'Press Start Conversation, then speak or type your question.',
  you: 'You',
  astro: 'Astro',
  pictureLoading: 'Astro is sketching a picture...',
  composerLabel: 'Type a message to Astro',
  composerPlaceholder: 'Type a question...',
  send: 'Send',
  offlineTutor: 'Offline tutor: Astro is answering from its built-in lessons.',
  lessonsForToday: 'Astro is using its own lessons for the rest of the day.',
  lessonsForConversation: 'Astro is using its own lessons for the rest of this conversation.',
  browserSpeech: "Using your browser's built-in voice.",
  noSpeech: "Voice input isn't available here: type your questions instead.",
  skip: 'Skip',
  skipLabel: 'Stop Astro speaking (Esc)',
  replay: 'Replay',
  replayLabel: "Hear Astro's last reply again",
  reconnecting: 'Reconnecting...',
  reconnectingNote: 'Speech recognition is reconnecting… You can type meanwhile.',
  microphoneDenied:
    "Microphone access is blocked. Allow it in your browser's site settings (the icon beside the address), then start a new conversation, or type your questions below.",
  noVoice: "Your browser has no voice for this language: Astro's replies are shown, not spoken.",
  feedbackTitle: 'Share Your Feedback',
  feedbackIntro: 'How is your conversation with Astro going?',
  helpfulness: 'Helpfulness',
  clarity: 'Clarity',
  rating: '{aspect}: {n} of {max}',
  suggestion: 'Suggestion (optional)',
  suggestionPlaceholder: 'What could Astro do better?',
  cancel: 'Cancel',
  submit: 'Submit',
  sending: 'Sending...',
  copyright: '© 2025 {provider}. All rights reserved.',
  contact: 'Contact us',
  level: 'Level',
  levelChild: 'Young explorer (8–11)',
  levelTeen: 'Teen (12–15)',
  levelAdult: 'Adult',
  takeYourTime: 'Take your time…',
  starsEarned: 'Stars earned',
};

/** The words for a number of stars, in English (docs/behaviour.md §2.23). */
export const stars: StarMessages = {
  count: { one: '{n} star earned', other: '{n} stars earned' },
  earned: { one: 'Correct! {n} star', other: 'Correct! {n} stars' },
};
