import type { SpeechEngineKind } from '../conversation/state';
import type { Messages } from '../i18n/messages';

/** Quiet notes: the offline tutor is answering, or speech runs on the browser's engine (or not at all). */
export function Notes({
  t,
  offlineTutor,
  engine,
}: {
  readonly t: Messages;
  readonly offlineTutor: boolean;
  readonly engine: SpeechEngineKind | null;
}) {
  const notes = [
    offlineTutor ? t.offlineTutor : null,
    engine === 'browser' ? t.browserSpeech : null,
    engine === 'none' ? t.noSpeech : null,
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
