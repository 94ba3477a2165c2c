/**
 * Where the transcript scrolls (docs/behaviour.md §2.6): to the newest message, except that while a check
 * question is open the question stays in view. A picture that arrives after the reply that asked it would
 * otherwise push the question out at the top (on a phone, and on a desktop too: a picture is taller than
 * half the transcript).
 */

/** Room kept above the question's first line: the bubble's own padding and a little air. */
const QUESTION_MARGIN_PX = 24;

/**
 * The scroll position for the transcript: its bottom, or, when `question` (the open question's bubble
 * text) would leave the view at the top, the furthest position that keeps the question's first line in
 * view, so whatever follows it (the picture) shows below as far as it fits.
 */
export function newestScrollTop(scroller: HTMLElement, question: HTMLElement | null, locale: string): number {
  const bottom = scroller.scrollHeight - scroller.clientHeight;
  if (!question) return bottom;
  const line = questionRect(question, locale);
  const view = scroller.getBoundingClientRect();
  // Where the question starts within the scrolled content, whatever the current (perhaps smooth) scroll.
  const questionTop = line.top - view.top - scroller.clientTop + scroller.scrollTop;
  return Math.max(0, Math.min(bottom, questionTop - QUESTION_MARGIN_PX));
}

/**
 * The box of the question: the reply's last sentence (a check question ends the reply, §17.2), cut with
 * the language's own sentence rules; the whole bubble where the browser cannot measure a part of a text.
 */
function questionRect(bubble: HTMLElement, locale: string): DOMRect {
  const text = bubble.textContent ?? '';
  const sentences = [...new Intl.Segmenter(locale, { granularity: 'sentence' }).segment(text.trimEnd())];
  const start = sentences.at(-1)?.index;
  const range = start === undefined ? null : rangeFrom(bubble, start);
  const rect =
    range && typeof range.getBoundingClientRect === 'function' ? range.getBoundingClientRect() : null;
  return rect && rect.height > 0 ? rect : bubble.getBoundingClientRect();
}

/** A range from the `offset`th character of `element`'s text to its end, across its text nodes. */
function rangeFrom(element: HTMLElement, offset: number): Range | null {
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let passed = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.textContent?.length ?? 0;
    if (offset < passed + length) {
      const range = element.ownerDocument.createRange();
      range.setStart(node, offset - passed);
      range.setEnd(element, element.childNodes.length);
      return range;
    }
    passed += length;
  }
  return null;
}
