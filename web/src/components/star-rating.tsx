import { useId } from 'react';
import type { Locale } from '#contract/languages';
import { RATING_MAX, RATING_MIN } from '#contract/limits';
import { format, type Messages } from '../i18n/messages';

export interface StarRatingProps {
  readonly t: Messages;
  /** The page's language: the numbers in each choice's name are written as it writes them. */
  readonly locale: Locale;
  readonly legend: string;
  readonly value: number;
  readonly onChange: (value: number) => void;
}

const CHOICES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, index) => RATING_MIN + index);

/** A five-pointed star in a 24-unit box: drawn outlined for a choice above the rating, filled up to it. */
const STAR_PATH = 'M12 2.6l2.8 6.1 6.6.7-4.9 4.5 1.4 6.6L12 17.1l-5.9 3.4 1.4-6.6-4.9-4.5 6.6-.7z';

/**
 * A 1–5 rating built on native radio buttons: arrow keys move between the choices, and each is named by
 * what it rates, "Helpfulness: 3 of 5" (docs/behaviour.md §2.17). It looks and reads unlike the stars the
 * learner earns (§2.23, a gold "★ 3" badge named "3 stars earned"): outlined shapes that fill up to the
 * choice, in the app's violet, and a name that never says "stars". In Arabic and Hebrew the row runs right
 * to left, like the page.
 */
export function StarRating({ t, locale, legend, value, onChange }: StarRatingProps) {
  const name = useId();
  const number = new Intl.NumberFormat(locale);
  return (
    <fieldset className="rating">
      <legend>{legend}</legend>
      <div className="rating-row">
        {CHOICES.map((choice) => (
          <label
            key={choice}
            className={choice <= value ? 'rating-choice rating-choice-on' : 'rating-choice'}
          >
            <input
              type="radio"
              className="visually-hidden"
              name={name}
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
              aria-label={format(t.rating, {
                aspect: legend,
                n: number.format(choice),
                max: number.format(RATING_MAX),
              })}
            />
            <svg className="rating-glyph" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d={STAR_PATH} />
            </svg>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
