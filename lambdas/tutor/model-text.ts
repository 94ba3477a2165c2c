/**
 * Cleaning what a chat model wrote before it becomes Astro's spoken reply. Some models think aloud in
 * tags (Amazon Nova writes `<thinking>` when tools are offered; Qwen 3 and DeepSeek R1 on local servers
 * write `<think>`); that is never for the learner.
 */
const THINKING_BLOCK = /<(thinking|think)>[\s\S]*?(<\/\1>|$)/gi;
const REASONING_TAGS = /<\/?(thinking|think|response|answer)>/gi;

export function spokenText(raw: string): string {
  return raw
    .replace(THINKING_BLOCK, ' ')
    .replace(REASONING_TAGS, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** A picture prompt as the model gave it, or undefined when it gave none worth drawing. */
export function picturePrompt(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const prompt = value.replace(/\s+/g, ' ').trim();
  return prompt.length > 0 ? prompt : undefined;
}
