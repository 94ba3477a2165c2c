import { memo, useState } from 'react';
import type { ChatMessage } from '#contract/schemas';
import { logError } from '../lib/log';
import type { Messages } from '../i18n/messages';
import { RichText } from './rich-text';

export interface MessageBubbleProps {
  readonly message: ChatMessage;
  readonly t: Messages;
  /** This reply ends with the open check question (docs/behaviour.md §2.6, §17.5). */
  readonly question?: boolean;
}

/**
 * One bubble. Memoised: a message never changes once the reducer has made it (a growing reply is a new
 * object), so a change of status, an interim text or a new bubble re-renders only what changed, not the
 * whole conversation: the page stays free for the voice however long the conversation gets.
 */
export const MessageBubble = memo(function MessageBubble({ message, t, question }: MessageBubbleProps) {
  const who = message.sender === 'user' ? t.you : t.astro;
  const isPicture = message.isLoading === true || message.imageUrl !== undefined;
  const kind = isPicture ? ' message-picture' : question ? ' message-question' : '';
  return (
    <li className={`message message-${message.sender}${kind}`}>
      <span className="visually-hidden">{who}: </span>
      {isPicture ? (
        <Picture message={message} t={t} />
      ) : (
        <p className="bubble-text">
          <RichText text={message.text} />
        </p>
      )}
    </li>
  );
});

/** A picture message: the spinner and 'Astro is sketching a picture...' until the picture has loaded. */
function Picture({ message, t }: MessageBubbleProps) {
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const waiting = message.imageUrl === undefined || (!loaded && !failed);
  return (
    <figure className="picture" aria-busy={waiting}>
      {waiting && (
        <div className="picture-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span>{t.pictureLoading}</span>
        </div>
      )}
      {message.imageUrl !== undefined && !failed && (
        <img
          src={message.imageUrl}
          alt={message.text}
          className={loaded ? 'picture-img' : 'picture-img picture-img-pending'}
          onLoad={() => setLoaded(true)}
          onError={() => {
            logError('the picture could not be displayed');
            setFailed(true);
          }}
        />
      )}
      {failed && <figcaption className="picture-caption">{message.text}</figcaption>}
    </figure>
  );
}
