import type { Messages } from '../messages';
import type { StarMessages } from '../star-messages';

/** Every string the UI shows, in French (docs/behaviour.md §2). */
export const messages: Messages = {
  tagline: 'Votre guide personnel du cosmos',
  byline: 'par {provider}',
  language: 'Langue',
  start: 'Démarrer la conversation',
  end: 'Terminer la conversation',
  speed: 'Vitesse',
  statusLabel: 'État',
  idle: 'Prêt quand vous l’êtes',
  listening: 'À l’écoute...',
  thinking: 'Réflexion...',
  speaking: 'Parle...',
  initializing: 'Préparation...',
  transcript: 'Conversation avec Astro',
  emptyTitle: 'Posez à Astro toutes vos questions sur l’espace',
  emptyHint: 'Appuyez sur Démarrer la conversation, puis parlez ou écrivez votre question.',
  you: 'Vous',
  astro: 'Astro',
  pictureLoading: 'Astro dessine une image...',
  composerLabel: 'Écrire un message à Astro',
  composerPlaceholder: 'Écrivez une question...',
  send: 'Envoyer',
  offlineTutor: 'Tuteur hors ligne : Astro répond avec ses leçons intégrées.',
  browserSpeech: 'Voix intégrée de votre navigateur utilisée.',
  noSpeech: 'La saisie vocale n’est pas disponible ici : écrivez vos questions.',
  skip: 'Passer',
  skipLabel: 'Arrêter la voix d’Astro (Échap)',
  replay: 'Réécouter',
  replayLabel: 'Réentendre la dernière réponse d’Astro',
  reconnecting: 'Reconnexion...',
  reconnectingNote: 'La reconnaissance vocale se reconnecte… Vous pouvez écrire en attendant.',
  microphoneDenied:
    'L’accès au micro est bloqué. Autorisez-le dans les paramètres du site de votre navigateur (l’icône à côté de l’adresse), puis lancez une nouvelle conversation, ou écrivez vos questions ci-dessous.',
  noVoice:
    'Votre navigateur n’a pas de voix pour cette langue : les réponses d’Astro sont affichées, pas lues.',
  feedbackTitle: 'Donnez votre avis',
  feedbackIntro: 'Comment se passe votre conversation avec Astro ?',
  helpfulness: 'Utilité',
  clarity: 'Clarté',
  rating: '{aspect}\u00a0: {n} sur {max}',
  suggestion: 'Suggestion (facultatif)',
  suggestionPlaceholder: 'Que pourrait améliorer Astro ?',
  cancel: 'Annuler',
  submit: 'Envoyer',
  sending: 'Envoi...',
  copyright: '© 2025 {provider}. Tous droits réservés.',
  contact: 'Nous contacter',
  level: 'Niveau',
  levelChild: 'Jeune explorateur (8–11 ans)',
  levelTeen: 'Ado (12–15 ans)',
  levelAdult: 'Adulte',
  takeYourTime: 'Prends ton temps…',
  starsEarned: 'Étoiles gagnées',
};

/** The words for a number of stars, in French (docs/behaviour.md §2.23). */
export const stars: StarMessages = {
  count: { one: '{n} étoile gagnée', other: '{n} étoiles gagnées' },
  earned: { one: 'Bonne réponse\u00a0! {n} étoile', other: 'Bonne réponse\u00a0! {n} étoiles' },
};
