import type { ChatMessage } from '#contract/schemas';

/** A polite live region that reads each new message from Astro to screen-reader users. */
export function Announcer({ messages }: { readonly messages: readonly ChatMessage[] }) {
  const latest = messages.findLast(
    (message) => message.sender === 'astro' && message.imageUrl === undefined && !message.isLoading,
  );
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {latest ? latest.text.replace(/\*/g, '') : ''}
    </div>
  );
}
