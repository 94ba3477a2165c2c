import type { SpendLimit } from '#contract/spend';
import type { SpeechEngineKind } from '../conversation/state';
import type { Messages } from '../i18n/messages';
import type { ListeningHealth } from '../speech/engine';

/**
 * Quiet notes: the offline tutor is answering (for the rest of the day or the conversation, when a spending
 * limit is why: docs/behaviour.md §12.19); speech runs on the browser's engine (or not at all); recognition
 * is reconnecting or the microphone is refused; the browser has no voice for the language.
 */
export function Notes({
  t,
  offlineTutor,
  spendLimit = null,
  engine,
  listeningHealth,
  voiceMissing,
}: {
  readonly t: Messages;
  readonly offlineTutor: boolean;
  readonly spendLimit?: SpendLimit | null;
  readonly engine: SpeechEngineKind | null;
  readonly listeningHealth: ListeningHealth | null;
  readonly voiceMissing: boolean;
}) {
  const notes = [
    offlineTutor ? offlineNote(t, spendLimit) : null,
    engine === 'browser' ? t.browserSpeech : null,
    engine === 'none' ? t.noSpeech : null,
    listeningHealth === 'reconnecting' ? t.reconnectingNote : null,
    listeningHealth === 'microphone_denied' ? t.microphoneDenied : null,
    voiceMissing ? t.noVoice : null,
  ].filter((note): note is string => note !== null);
  if (notes.length === 0) return null;
  return (
    <ul className="notes">
      {notes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}

/** Why the offline tutor answers: configured so, or a spending limit for the day or the conversation. */
function offlineNote(t: Messages, spendLimit: SpendLimit | null): string {
  if (spendLimit === 'conversation') return t.lessonsForConversation;
  if (spendLimit === 'day' || spendLimit === 'client') return t.lessonsForToday;
  return t.offlineTutor;
}
