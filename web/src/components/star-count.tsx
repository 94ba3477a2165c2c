import type { Locale } from '#contract/languages';
import type { Messages } from '../i18n/messages';
import { pluralOf, STAR_MESSAGES } from '../i18n/star-messages';

export interface StarCountProps {
  readonly t: Messages;
  /** The language of the UI: the words and plural forms follow it. */
  readonly locale: Locale;
  /** Correct answers in this conversation (docs/behaviour.md §17.4). */
  readonly stars: number;
}

/**
 * The stars earned in the conversation, a small gold badge beside the status line (docs/behaviour.md
 * §2.23): "★ 3" once there is one, named "3 stars earned" for screen readers, unlike the feedback dialog's
 * ratings ("Helpfulness: 3 of 5", §2.17). The star pops in when the count grows (the key restarts the
 * animation), except with reduced motion.
 */
export function StarCount({ t, locale, stars }: StarCountProps) {
  if (stars === 0) return null;
  return (
    <span
      className="star-count"
      role="img"
      aria-label={pluralOf(locale, STAR_MESSAGES[locale].count, stars)}
      title={t.starsEarned}
    >
      <span key={stars} className="star-icon" aria-hidden="true">
        ★
      </span>
      <span aria-hidden="true">{new Intl.NumberFormat(locale).format(stars)}</span>
    </span>
  );
}

/**
 * "Correct! 3 stars", said politely each time a star is earned (docs/behaviour.md §2.23). Outside the part
 * of the page the feedback dialog makes inert, like the announcer of Astro's messages, so it is still heard.
 */
export function StarAnnouncement({ locale, stars }: Omit<StarCountProps, 't'>) {
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {stars > 0 ? pluralOf(locale, STAR_MESSAGES[locale].earned, stars) : ''}
    </div>
  );
}
