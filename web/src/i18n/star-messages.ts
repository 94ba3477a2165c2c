import type { Locale } from '#contract/languages';

/**
 * The words for a number of stars (docs/behaviour.md §2.23, §17.4), with each language's plural forms as
 * `Intl.PluralRules` names them: English has one and other, Arabic six forms, Chinese and Japanese one.
 * `{n}` is the number; a form may say it in words instead (Arabic and Hebrew one and two).
 */
export type PluralForms = { readonly other: string } & Partial<Readonly<Record<Intl.LDMLPluralRule, string>>>;

export interface StarMessages {
  /**
   * The accessible name of the star badge beside the status line: "3 stars earned", which no feedback
   * rating's name resembles ("Helpfulness: 3 of 5", §2.17).
   */
  readonly count: PluralForms;
  /** The polite announcement when a star is earned: "Correct! 3 stars". */
  readonly earned: PluralForms;
}

export const STAR_MESSAGES: Readonly<Record<Locale, StarMessages>> = {
  'en-US': {
    count: { one: '{n} star earned', other: '{n} stars earned' },
    earned: { one: 'Correct! {n} star', other: 'Correct! {n} stars' },
  },
  'es-ES': {
    count: { one: '{n} estrella ganada', other: '{n} estrellas ganadas' },
    earned: { one: '¡Correcto! {n} estrella', other: '¡Correcto! {n} estrellas' },
  },
  'pt-BR': {
    count: { one: '{n} estrela ganha', other: '{n} estrelas ganhas' },
    earned: { one: 'Correto! {n} estrela', other: 'Correto! {n} estrelas' },
  },
  'fr-FR': {
    count: { one: '{n} étoile gagnée', other: '{n} étoiles gagnées' },
    earned: { one: 'Bonne réponse\u00a0! {n} étoile', other: 'Bonne réponse\u00a0! {n} étoiles' },
  },
  'de-DE': {
    count: { one: '{n} verdienter Stern', other: '{n} verdiente Sterne' },
    earned: { one: 'Richtig! {n} Stern', other: 'Richtig! {n} Sterne' },
  },
  'it-IT': {
    count: { one: '{n} stella guadagnata', other: '{n} stelle guadagnate' },
    earned: { one: 'Esatto! {n} stella', other: 'Esatto! {n} stelle' },
  },
  'ar-SA': {
    count: {
      zero: 'لا نجوم مكتسبة',
      one: 'نجمة واحدة مكتسبة',
      two: 'نجمتان مكتسبتان',
      few: '{n} نجوم مكتسبة',
      many: '{n} نجمة مكتسبة',
      other: '{n} نجمة مكتسبة',
    },
    earned: {
      zero: 'إجابة صحيحة! لا نجوم',
      one: 'إجابة صحيحة! نجمة واحدة',
      two: 'إجابة صحيحة! نجمتان',
      few: 'إجابة صحيحة! {n} نجوم',
      many: 'إجابة صحيحة! {n} نجمة',
      other: 'إجابة صحيحة! {n} نجمة',
    },
  },
  'zh-CN': {
    count: { other: '已获得 {n} 颗星' },
    earned: { other: '答对了！{n} 颗星' },
  },
  'ja-JP': {
    count: { other: '獲得した星{n}個' },
    earned: { other: '正解！星{n}個' },
  },
  'he-IL': {
    count: { one: 'כוכב אחד שנצבר', two: 'שני כוכבים שנצברו', other: '{n} כוכבים שנצברו' },
    earned: { one: 'נכון! כוכב אחד', two: 'נכון! שני כוכבים', other: 'נכון! {n} כוכבים' },
  },
};

/** The form of `forms` for `n` in the locale's plural rules, with `{n}` written as the locale writes it. */
export function pluralOf(locale: Locale, forms: PluralForms, n: number): string {
  const form = forms[new Intl.PluralRules(locale).select(n)] ?? forms.other;
  return form.replace('{n}', new Intl.NumberFormat(locale).format(n));
}
