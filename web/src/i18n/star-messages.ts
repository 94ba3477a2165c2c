import type { Locale } from '#contract/languages';

/**
 * The words for a number of stars (docs/behaviour.md §2.23, §17.4), in each language's file beside its UI
 * strings (`languages/`), with each language's plural forms as
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

/** The form of `forms` for `n` in the locale's plural rules, with `{n}` written as the locale writes it. */
export function pluralOf(locale: Locale, forms: PluralForms, n: number): string {
  const form = forms[new Intl.PluralRules(locale).select(n)] ?? forms.other;
  return form.replace('{n}', new Intl.NumberFormat(locale).format(n));
}
