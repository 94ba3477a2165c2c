/**
 * The offline picture maker: draws an SVG sketch from the (English) prompt, with no network. The subject
 * is chosen from the prompt's words (a ringed planet, a crescent Moon, a spiral galaxy, a comet, the Sun…,
 * else a night sky) and the details are seeded from the prompt, so the same prompt always gives the same
 * picture.
 *
 * The SVG is served same-origin as image/svg+xml, so it is built to be inert: no script, no event
 * attributes, no links or external references (only `url(#id)` references to its own gradients), and the
 * prompt appears only as escaped text inside <title>, for screen readers.
 */
import type { PictureMaker, MadePicture } from './picture-maker';
import { Random, SIZE } from './offline-sketch-draw';
import { FALLBACK_SUBJECT, SUBJECTS } from './offline-sketch-subjects';

/** Long enough for any prompt the contract allows; the title is a label, not a transcript. */
const TITLE_MAX_CHARS = 300;

/** The name of the subject a prompt will be drawn as, e.g. "ringed planet" or "comet". */
export function subjectOf(prompt: string): string {
  return pickSubject(prompt).name;
}

/** The SVG document for a prompt. */
export function sketch(prompt: string): string {
  const subject = pickSubject(prompt);
  // Sliced by code points, so an emoji is never cut in half.
  const label = Array.from(toXmlText(prompt).trim()).slice(0, TITLE_MAX_CHARS).join('');
  const title = escapeXml(label) || 'A sketch of the night sky';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-labelledby="sketch-title">` +
    `<title id="sketch-title">${title}</title>` +
    subject.draw(new Random(prompt)) +
    `</svg>`
  );
}

export function createOfflineSketcher(): PictureMaker {
  const encoder = new TextEncoder();
  return {
    provider: 'offline',
    async make(prompt: string, signal?: AbortSignal): Promise<MadePicture> {
      signal?.throwIfAborted();
      return { bytes: encoder.encode(sketch(prompt)), contentType: 'image/svg+xml', extension: 'svg' };
    },
  };
}

function pickSubject(prompt: string) {
  const words = prompt.toLowerCase();
  return SUBJECTS.find((subject) => subject.words.test(words)) ?? FALLBACK_SUBJECT;
}

/** Drops characters XML 1.0 cannot carry (controls, lone surrogates), which would break the document. */
function toXmlText(text: string): string {
  return text.replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
