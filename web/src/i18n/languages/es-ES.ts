import type { Messages } from '../messages';
import type { StarMessages } from '../star-messages';

/** Every string the UI shows, in Spanish (docs/behaviour.md §2). */
export const messages: Messages = {
  tagline: 'Tu guía personal del cosmos',
  byline: 'por {provider}',
  language: 'Idioma',
  start: 'Iniciar conversación',
  end: 'Terminar conversación',
  speed: 'Velocidad',
  statusLabel: 'Estado',
  idle: 'Listo cuando tú lo estés',
  listening: 'Escuchando...',
  thinking: 'Pensando...',
  speaking: 'Hablando...',
  initializing: 'Preparando...',
  transcript: 'Conversación con Astro',
  emptyTitle: 'Pregúntale a Astro lo que quieras sobre el espacio',
  emptyHint: 'Pulsa Iniciar conversación y luego habla o escribe tu pregunta.',
  you: 'Tú',
  astro: 'Astro',
  pictureLoading: 'Astro está dibujando una imagen...',
  composerLabel: 'Escribe un mensaje a Astro',
  composerPlaceholder: 'Escribe una pregunta...',
  send: 'Enviar',
  offlineTutor: 'Tutor sin conexión: Astro responde con sus lecciones integradas.',
  browserSpeech: 'Usando la voz integrada de tu navegador.',
  noSpeech: 'La entrada de voz no está disponible aquí: escribe tus preguntas.',
  skip: 'Saltar',
  skipLabel: 'Hacer que Astro deje de hablar (Esc)',
  replay: 'Repetir',
  replayLabel: 'Volver a oír la última respuesta de Astro',
  reconnecting: 'Reconectando...',
  reconnectingNote: 'El reconocimiento de voz se está reconectando… Mientras tanto puedes escribir.',
  microphoneDenied:
    'El acceso al micrófono está bloqueado. Permítelo en la configuración del sitio de tu navegador (el icono junto a la dirección) e inicia una nueva conversación, o escribe tus preguntas abajo.',
  noVoice:
    'Tu navegador no tiene voz para este idioma: las respuestas de Astro se muestran, pero no se leen en voz alta.',
  feedbackTitle: 'Comparte tu opinión',
  feedbackIntro: '¿Qué tal va tu conversación con Astro?',
  helpfulness: 'Utilidad',
  clarity: 'Claridad',
  rating: '{aspect}: {n} de {max}',
  suggestion: 'Sugerencia (opcional)',
  suggestionPlaceholder: '¿Qué podría hacer mejor Astro?',
  cancel: 'Cancelar',
  submit: 'Enviar',
  sending: 'Enviando...',
  copyright: '© 2025 {provider}. Todos los derechos reservados.',
  contact: 'Contacto',
  level: 'Nivel',
  levelChild: 'Joven explorador (8–11)',
  levelTeen: 'Adolescente (12–15)',
  levelAdult: 'Adulto',
  takeYourTime: 'Tómate tu tiempo…',
  starsEarned: 'Estrellas ganadas',
};

/** The words for a number of stars, in Spanish (docs/behaviour.md §2.23). */
export const stars: StarMessages = {
  count: { one: '{n} estrella ganada', other: '{n} estrellas ganadas' },
  earned: { one: '¡Correcto! {n} estrella', other: '¡Correcto! {n} estrellas' },
};
