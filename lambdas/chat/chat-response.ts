import { INIT_MARKER } from '../contract/languages';
import { IMAGE_PROMPT_MAX_CHARS } from '../contract/limits';
import type { UnsignedReply } from '../trust/trust';
import type { TutorReply } from '../tutor/tutor';
import { upstreamFailed } from '../upstream/upstream-errors';

/**
 * The tutor's reply as the contract promises it, whichever provider wrote it: the `__INIT__` marker
 * never reaches the learner, the text is trimmed and never empty (an empty bubble would be spoken as
 * silence), and the picture prompt fits the contract's limit. `Trust.seal` then adds its signature.
 */
export function toChatResponse(reply: TutorReply): UnsignedReply {
  const response = withoutMarker(reply.response);
  if (response.length === 0) throw upstreamFailed(new Error('the tutor returned no text'));
  const imagePrompt = reply.imagePrompt === undefined ? '' : clampPrompt(withoutMarker(reply.imagePrompt));
  return {
    response,
    ...(imagePrompt.length > 0 ? { imagePrompt } : {}),
    ...(reply.check === undefined ? {} : { check: reply.check }),
  };
}

/** The text without the `__INIT__` marker, whose place closes up. */
export function withoutMarker(text: string): string {
  return text
    .split(INIT_MARKER)
    .join(' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** Cuts a prompt to the limit at a word boundary when one is near, never inside a surrogate pair. */
export function clampPrompt(prompt: string, max = IMAGE_PROMPT_MAX_CHARS): string {
  if (prompt.length <= max) return prompt;
  let cut = prompt.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const lastSpace = cut.lastIndexOf(' ');
  if (lastSpace >= max * 0.8) cut = cut.slice(0, lastSpace);
  return cut.trim();
}
