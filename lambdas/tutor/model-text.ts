/**
 * Cleaning what a chat model wrote before it becomes Astro's spoken reply. Some models think aloud in
 * tags (Amazon Nova writes `<thinking>` when tools are offered; Qwen 3 and DeepSeek R1 on local servers
 * write `<think>`); that is never for the learner.
 */
import { StreamedText, withoutTrailingSpace } from './streamed-text';

const THINKING_BLOCK = /<(thinking|think)>[\s\S]*?(<\/\1>|$)/gi;
const REASONING_TAGS = /<\/?(thinking|think|response|answer)>/gi;

export function spokenText(raw: string): string {
  return raw
    .replace(THINKING_BLOCK, ' ')
    .replace(REASONING_TAGS, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/**
 * How much of a streamed model text is settled: not a tag still being written (`<thi…`), not trailing
 * whitespace. A thinking block still open needs no rule: `spokenText` drops it to the end of the text.
 */
function settledSpokenLength(raw: string): number {
  return withoutTrailingSpace(raw.replace(/<\/?[a-z]*$/i, '')).length;
}

/** `spokenText` for a reply that streams in: its pieces concatenate to `spokenText` of the whole. */
export function spokenTextStream(): StreamedText {
  return new StreamedText(spokenText, settledSpokenLength);
}

/** A picture prompt as the model gave it, or undefined when it gave none worth drawing. */
export function picturePrompt(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const prompt = value.replace(/\s+/g, ' ').trim();
  return prompt.length > 0 ? prompt : undefined;
}
