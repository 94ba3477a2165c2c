import { languageOf, type Locale } from '#contract/languages';
import type { SpokenSegment } from './pronunciation';

/**
 * Characters XML 1.0 forbids (C0 controls but tab, newline and carriage return; U+FFFE, U+FFFF) and
 * surrogates that are not part of a pair: any of them makes the service refuse the whole document.
 */
const FORBIDDEN_IN_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * SSML naming the locale's neural voice. It is built from segments, never from markup in the reply: every
 * text and attribute is cleaned and escaped, and a name's pronunciation is its own element, never inside
 * another (docs/behaviour.md §10.14, §17.8).
 */
export function ssmlFor(spoken: readonly SpokenSegment[], locale: Locale): string {
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${locale}">` +
    `<voice name="${languageOf(locale).voice}">${spoken.map(segmentSsml).join('')}</voice></speak>`
  );
}

function segmentSsml(segment: SpokenSegment): string {
  switch (segment.kind) {
    case 'text':
      return escapeXml(segment.text);
    case 'phoneme':
      return `<phoneme alphabet="${segment.alphabet}" ph="${escapeXml(segment.ph)}">${escapeXml(segment.text)}</phoneme>`;
    case 'sub':
      return `<sub alias="${escapeXml(segment.alias)}">${escapeXml(segment.text)}</sub>`;
  }
}

function escapeXml(text: string): string {
  return text.replace(FORBIDDEN_IN_XML, '').replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
