import { useId } from 'react';
import { RATING_MAX, RATING_MIN } from '#contract/limits';
import { format, type Messages } from '../i18n/messages';

export interface StarRatingProps {
  readonly t: Messages;
  readonly legend: string;
  readonly value: number;
  readonly onChange: (value: number) => void;
}

const STARS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, index) => RATING_MIN + index);

/**
 * A 1–5 star rating built on native radio buttons: arrow keys move between stars and screen readers
 * announce a radio group with "n of 5 stars".
 */
export function StarRating({ t, legend, value, onChange }: StarRatingProps) {
  const name = useId();
  return (
    <fieldset className="stars">
      <legend>{legend}</legend>
      <div className="stars-row">
        {STARS.map((star) => (
          <label key={star} className={star <= value ? 'star star-on' : 'star'}>
            <input
              type="radio"
              className="visually-hidden"
              name={name}
              value={star}
              checked={value === star}
              onChange={() => onChange(star)}
              aria-label={format(t.stars, { n: star })}
            />
            <span aria-hidden="true">★</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
