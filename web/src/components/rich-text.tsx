import type { ReactNode } from 'react';

/**
 * Renders the model's text as React text nodes, with `**bold**` as <strong>: nothing is ever parsed as
 * HTML, so markup in a reply shows as the literal characters.
 */
export function RichText({ text }: { readonly text: string }): ReactNode {
  const parts = text.split(/\*\*(.+?)\*\*/gs);
  // split with one capture group alternates: plain, bold, plain, bold, ...
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      <strong key={index}>{part}</strong>
    ) : part === '' ? null : (
      <span key={index}>{part}</span>
    ),
  );
}
