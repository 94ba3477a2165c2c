import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Locale } from '#contract/languages';
import { FEEDBACK_SUGGESTION_MAX_CHARS } from '#contract/limits';
import type { FeedbackInput } from '../conversation/controller';
import { canSubmitFeedback } from '../conversation/state';
import type { Messages } from '../i18n/messages';
import { StarRating } from './star-rating';

export interface FeedbackModalProps {
  readonly t: Messages;
  /** The page's language, for the numbers in the ratings' names. */
  readonly locale: Locale;
  readonly sending: boolean;
  /** Cancel, a backdrop click or Escape. */
  readonly onDismiss: () => void;
  readonly onSubmit: (input: FeedbackInput) => void;
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/**
 * 'Share Your Feedback' (docs/behaviour.md §2.17–§2.18, §5). Focus moves into the dialog, Tab stays inside
 * it, and focus returns to where it was when the dialog closes.
 */
export function FeedbackModal({ t, locale, sending, onDismiss, onSubmit }: FeedbackModalProps) {
  const [helpfulness, setHelpfulness] = useState(0);
  const [clarity, setClarity] = useState(0);
  const [suggestion, setSuggestion] = useState('');
  const dialog = useRef<HTMLDivElement>(null);
  const canSubmit = canSubmitFeedback(helpfulness, clarity, sending);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.querySelector<HTMLElement>('input')?.focus();
    return () => {
      previous?.focus();
      // The element may have become disabled meanwhile; then continue from the text box.
      if (document.activeElement !== previous) document.getElementById('composer-input')?.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      if (!sending) onDismiss();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = tabbable(dialog.current);
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && !sending) onDismiss();
      }}
    >
      <div
        ref={dialog}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="feedback-title"
        aria-describedby="feedback-intro"
        onKeyDown={onKeyDown}
      >
        <h2 id="feedback-title">{t.feedbackTitle}</h2>
        <p id="feedback-intro" className="modal-intro">
          {t.feedbackIntro}
        </p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (canSubmit) onSubmit({ helpfulness, clarity, suggestion });
          }}
        >
          <StarRating
            t={t}
            locale={locale}
            legend={t.helpfulness}
            value={helpfulness}
            onChange={setHelpfulness}
          />
          <StarRating t={t} locale={locale} legend={t.clarity} value={clarity} onChange={setClarity} />
          <label className="suggestion">
            <span>{t.suggestion}</span>
            <textarea
              value={suggestion}
              maxLength={FEEDBACK_SUGGESTION_MAX_CHARS}
              rows={3}
              placeholder={t.suggestionPlaceholder}
              onChange={(event) => setSuggestion(event.target.value)}
            />
          </label>
          <div className="modal-actions">
            <button type="button" className="ghost-button" onClick={onDismiss} disabled={sending}>
              {t.cancel}
            </button>
            <button type="submit" className="primary-button" disabled={!canSubmit}>
              {sending ? t.sending : t.submit}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

/** The dialog's elements in Tab order: a radio group is one stop (its checked radio, else its first). */
function tabbable(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => {
    if (!(element instanceof HTMLInputElement) || element.type !== 'radio') return true;
    const group = [...root.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter(
      (radio) => radio.name === element.name,
    );
    return (group.find((radio) => radio.checked) ?? group[0]) === element;
  });
}
