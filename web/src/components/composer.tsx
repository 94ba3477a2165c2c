import { useRef, useState, type FormEvent } from 'react';
import { CHAT_USER_MESSAGE_MAX_CHARS } from '#contract/limits';
import type { Messages } from '../i18n/messages';

export interface ComposerProps {
  readonly t: Messages;
  /** A typed message is accepted under the same rule as a spoken one: only while listening. */
  readonly canSend: boolean;
  readonly active: boolean;
  /** Returns true when the message was accepted. */
  readonly onSend: (text: string) => boolean;
}

/** Typing instead of speaking, so the tutor works without a microphone. */
export function Composer({ t, canSend, active, onSend }: ComposerProps) {
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '' || !onSend(text)) return;
    setText('');
    // Keep the learner in the text box for the next question, whether they pressed Enter or Send.
    input.current?.focus();
  };
  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor="composer-input" className="visually-hidden">
        {t.composerLabel}
      </label>
      <input
        ref={input}
        id="composer-input"
        type="text"
        value={text}
        maxLength={CHAT_USER_MESSAGE_MAX_CHARS}
        placeholder={t.composerPlaceholder}
        disabled={!active}
        autoComplete="off"
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="send-button" disabled={!canSend || text.trim() === ''}>
        {t.send}
      </button>
    </form>
  );
}
