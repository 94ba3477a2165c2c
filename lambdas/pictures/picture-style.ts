/**
 * The look every generated picture shares: clear, friendly, educational space illustrations. The
 * prompt is in English (the tutor is told to write it so); the style is prepended to it.
 */
export const STYLE_PREFIX =
  'A clear, colourful educational illustration for young astronomy learners, accurate and uncluttered, ' +
  'dark starry background: ';

/** What the picture should not contain (Nova Canvas and Titan advise listing it, not negating it). */
export const NEGATIVE_TEXT =
  'text, letters, labels, watermark, signature, blurry, distorted, frightening, violent, gore, people';

/** The style prefix and the prompt within a model's text limit (Nova Canvas and Titan: 1024). */
export function styledPrompt(prompt: string, maxChars = 1024): string {
  const text = `${STYLE_PREFIX}${prompt.trim()}`;
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A seed derived from the prompt (FNV-1a): the same prompt draws the same picture, within Nova's range. */
export function seedFor(prompt: string): number {
  let hash = 0x811c9dc5;
  for (const char of prompt) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 858_993_460;
}
