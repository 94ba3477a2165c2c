/**
 * How the eval reads a reply's words, the same for every tutor and independent of the offline tutor's own
 * matcher (a shared bug would hide itself): case, accents and marks are ignored, the digits of every
 * script are read as 0–9, and digit groups lose their separators ("384,400", "384 400", "384.400" and
 * "384400" are one number). Words written in letters with spaces between words are found at the start of
 * a word or number ("star" in "stars", not in "mustard"; "384" in "384,400", not "88" in "188"); Arabic and Hebrew (clitics glued to the front) and Chinese
 * and Japanese (no spaces) are found anywhere.
 */

/** Folds text for comparison: compatibility forms, no marks, lower case, ASCII digits, no digit groups. */
export function foldText(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // Arabic-Indic and extended Arabic-Indic digits as 0–9.
      .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
      .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
      // Arabic spelling variants: tatweel, ta marbuta, alef maqsura.
      .replace(/\u0640/g, '')
      .replace(/\u0629/g, '\u0647')
      .replace(/\u0649/g, '\u064a')
      // Group separators between digits: a comma, point, space, thin space, apostrophe or Arabic comma
      // followed by exactly three digits.
      .replace(/(\d)[,.\s'\u066c\u060c](?=\d{3}(?!\d))/gu, '$1')
  );
}

const WORD_START_SCRIPTS = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}]/u;
/** A word goes on through these (a Chinese or Japanese character before "88" starts a new one). */
const LETTER_OR_DIGIT = '[\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{N}]';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `text` holds `phrase`, as described above. */
export function holdsPhrase(text: string, phrase: string): boolean {
  const folded = foldText(text);
  const wanted = foldText(phrase).trim();
  if (wanted.length === 0) return false;
  if (!WORD_START_SCRIPTS.test(wanted)) return folded.includes(wanted);
  // At the start of a word or a number: "star" in "stars", "384" in "384,400", never "88" in "188".
  return new RegExp(`(?<!${LETTER_OR_DIGIT})${escape(wanted)}`, 'u').test(folded);
}

/** The first of `phrases` that `text` holds, if any. */
export function firstHeld(text: string, phrases: readonly string[] | undefined): string | undefined {
  return phrases?.find((phrase) => holdsPhrase(text, phrase));
}

/** Whether the text ends with a question (any script's question mark, then closing quotes or brackets). */
export function endsWithQuestion(text: string): boolean {
  return /[?？؟][\s"'»”’」』)\]）]*$/u.test(text.trim());
}

/** The last sentence of `text` when it is a question, trimmed; undefined when the text ends otherwise. */
export function finalQuestion(text: string): string | undefined {
  const match = /[^.!?。！？؟\n]*[?？؟][\s"'»”’」』)\]）]*$/u.exec(text.trim());
  const question = match?.[0].trim();
  return question && question.length > 0 ? question : undefined;
}
