/**
 * Sentences of a lesson text: each ends at Latin, Arabic or Hebrew punctuation followed by a space or the
 * end, or at a Chinese or Japanese stop. A point inside a number ("4.6 billion") ends nothing.
 */
export function sentencesOf(text: string): string[] {
  return (text.match(/(?:[^.!?؟。！？]|[.!?؟](?!\s|$))+(?:[.!?؟]+(?=\s|$)|[。！？]+|$)/gu) ?? [])
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}
