import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Locale } from '#contract/languages';
import { AudioPlayer, isIOSDevice } from '../speech/audio-player';
import { selectSpeechEngine } from '../speech/select-engine';
import { ConversationController, defaultDeps, type ConversationDeps } from './controller';
import { initialState, type ConversationState } from './state';

/** Builds the real dependencies: one reused audio element, unlocked on iPhone, and the engine choice. */
function realDeps(): ConversationDeps {
  const player = new AudioPlayer();
  return defaultDeps({
    createEngine: () => selectSpeechEngine(player),
    unlockAudio: () => {
      if (!isIOSDevice()) return;
      player.unlock();
      // iOS gates speechSynthesis on a gesture too (the browser engine's voice): an empty utterance opens it.
      if ('speechSynthesis' in window) window.speechSynthesis.speak(new SpeechSynthesisUtterance(''));
    },
  });
}

/**
 * The one hook the app uses: the conversation state, and the controller to act on it, starting in the
 * page's language (docs/behaviour.md §2.24). The controller's engine (recogniser, timers, audio) is
 * released when the component unmounts.
 */
export function useConversation(
  deps?: () => ConversationDeps,
  language: Locale = initialState.language,
): {
  state: ConversationState;
  controller: ConversationController;
} {
  const [controller] = useState(
    () =>
      new ConversationController((deps ?? realDeps)(), {
        ...initialState,
        language,
        conversationLanguage: language,
      }),
  );
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  useEffect(() => () => controller.dispose(), [controller]);
  return { state, controller };
}
