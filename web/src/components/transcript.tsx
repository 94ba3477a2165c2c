import { useEffect, useRef } from 'react';
import { languageOf, type Locale } from '#contract/languages';
import type { ChatMessage } from '#contract/schemas';
import type { Messages } from '../i18n/messages';
import { MessageBubble } from './message-bubble';
import { newestScrollTop } from './open-question';

export interface TranscriptProps {
  readonly t: Messages;
  readonly messages: readonly ChatMessage[];
  readonly interim: string;
  /** The language the conversation was held in: sets the transcript's direction. */
  readonly language: Locale;
  /** Astro's reply that ends with the open check question, kept in view (docs/behaviour.md §2.6). */
  readonly questionId: ChatMessage['id'] | null;
}

/**
 * The chat transcript. Its `dir` and `lang` are the conversation's, so Arabic and Hebrew read right to
 * left; each bubble's text is bidi-isolated so English names and numbers inside keep their order.
 */
export function Transcript({ t, messages, interim, language, questionId }: TranscriptProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const hasContent = messages.length > 0 || interim !== '';

  // Keep the newest message in view: on every new bubble, whenever content grows (a picture that
  // finishes loading, a longer interim text), which a messages-only dependency would miss, and whenever
  // the transcript itself gets shorter (a longer status line, "Take your time…", on a phone). While a
  // check question is open, never so far that the question leaves the view (docs/behaviour.md §2.6).
  useEffect(() => {
    const element = scroller.current;
    const content = list.current;
    if (!element || !content) return;
    const toNewest = () => {
      const question = content.querySelector<HTMLElement>('.message-question .bubble-text');
      element.scrollTop = newestScrollTop(element, question, language);
    };
    toNewest();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(toNewest);
    observer.observe(content);
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasContent, messages.length, questionId, language]);

  return (
    <div
      ref={scroller}
      className="transcript"
      dir={languageOf(language).dir}
      lang={language}
      role="region"
      aria-label={t.transcript}
      tabIndex={0}
    >
      {!hasContent ? (
        <div className="empty">
          <p className="empty-title">{t.emptyTitle}</p>
          <p className="empty-hint">{t.emptyHint}</p>
        </div>
      ) : (
        <ol ref={list} className="messages">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} t={t} question={message.id === questionId} />
          ))}
          {interim !== '' && (
            <li className="message message-user message-interim" aria-hidden="true">
              <p className="bubble-text">{interim}</p>
            </li>
          )}
        </ol>
      )}
    </div>
  );
}
