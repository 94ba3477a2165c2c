// @vitest-environment jsdom
import { cleanup, render, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCALES } from '#contract/languages';
import { FeedbackModal } from '#web/components/feedback-modal.tsx';
import { StarCount } from '#web/components/star-count.tsx';
import { MESSAGES } from '#web/i18n/messages';

// docs/behaviour.md §2.17, §2.23: the feedback dialog's ratings and the stars the learner earned read
// differently in every language, so a screen-reader user never takes one for the other.
afterEach(cleanup);

function ratingNames(locale: (typeof LOCALES)[number], aspect: string): string[] {
  const t = MESSAGES[locale];
  const { getByRole } = render(
    <FeedbackModal
      t={t}
      locale={locale}
      sending={false}
      onDismiss={() => undefined}
      onSubmit={() => undefined}
    />,
  );
  const names = within(getByRole('group', { name: aspect }))
    .getAllByRole('radio')
    .map((radio) => radio.getAttribute('aria-label') ?? '');
  cleanup();
  return names;
}

function badgeName(locale: (typeof LOCALES)[number], stars: number): string {
  const { getByRole } = render(<StarCount t={MESSAGES[locale]} locale={locale} stars={stars} />);
  const name = getByRole('img').getAttribute('aria-label') ?? '';
  cleanup();
  return name;
}

describe('the feedback ratings and the stars earned', () => {
  it('name each rating by what it rates, "Helpfulness: 3 of 5", and the badge "3 stars earned"', () => {
    expect(ratingNames('en-US', 'Helpfulness')).toEqual([
      'Helpfulness: 1 of 5',
      'Helpfulness: 2 of 5',
      'Helpfulness: 3 of 5',
      'Helpfulness: 4 of 5',
      'Helpfulness: 5 of 5',
    ]);
    expect(ratingNames('en-US', 'Clarity')[2]).toBe('Clarity: 3 of 5');
    expect(badgeName('en-US', 3)).toBe('3 stars earned');
    expect(badgeName('en-US', 1)).toBe('1 star earned');
  });

  it.each(LOCALES)(
    '%s: five distinct rating names, none like the badge, numbers as the language writes them',
    (locale) => {
      const t = MESSAGES[locale];
      const number = new Intl.NumberFormat(locale);
      for (const aspect of [t.helpfulness, t.clarity]) {
        const names = ratingNames(locale, aspect);
        expect(names).toHaveLength(5);
        expect(new Set(names).size).toBe(5);
        names.forEach((name, index) => {
          expect(name).toContain(aspect);
          expect(name).toContain(number.format(index + 1));
          expect(name).toContain(number.format(5));
          expect(name).not.toMatch(/[{}]/);
        });
        for (const stars of [1, 2, 3, 5]) {
          const badge = badgeName(locale, stars);
          for (const name of names) {
            expect(name.includes(badge) || badge.includes(name), `${name} / ${badge}`).toBe(false);
          }
        }
      }
    },
  );

  it('writes Arabic numbers in Arabic-Indic digits, as the badge does', () => {
    expect(ratingNames('ar-SA', MESSAGES['ar-SA'].helpfulness)[2]).toBe('الفائدة: ٣ من ٥');
    expect(badgeName('ar-SA', 3)).toBe('٣ نجوم مكتسبة');
    expect(ratingNames('he-IL', MESSAGES['he-IL'].clarity)[3]).toBe('בהירות: 4 מתוך 5');
  });
});
