import type { Locale } from '#contract/languages';
import type { WebSettings } from '../lib/env';
import { PLAYBACK_SPEEDS, type PlaybackSpeed } from '../conversation/speed';
import type { Status } from '../conversation/state';
import type { ListeningHealth } from '../speech/engine';
import { format, type Messages } from '../i18n/messages';
import { StarCount } from './star-count';

export interface FooterProps {
  readonly t: Messages;
  readonly settings: WebSettings;
  readonly status: Status;
  readonly active: boolean;
  /** docs/behaviour.md §2.11: disabled while thinking, speaking or initializing. */
  readonly busy: boolean;
  /** The speech engine is still being prepared: the status line says "Getting ready..." (§4.1). */
  readonly initializing: boolean;
  readonly speed: PlaybackSpeed;
  /** Recognition is down and coming back: the status line says so instead of a dead "Listening...". */
  readonly listeningHealth: ListeningHealth | null;
  readonly onToggle: () => void;
  readonly onSpeed: (speed: PlaybackSpeed) => void;
  /** Stops Astro speaking; the control is shown only while it speaks. */
  readonly onSkip: () => void;
  /** There is a reply to hear again; Replay is shown only while listening. */
  readonly canReplay: boolean;
  readonly onReplay: () => void;
  /** A check question is open: while listening, the status line says "Take your time…" (§17.5). */
  readonly checkOpen: boolean;
  /** Stars earned in this conversation, and the UI's language for their name (§2.23). */
  readonly stars: number;
  readonly locale: Locale;
}

export function Controls({
  t,
  status,
  active,
  busy,
  initializing,
  speed,
  listeningHealth,
  onToggle,
  onSpeed,
  onSkip,
  canReplay,
  onReplay,
  checkOpen,
  stars,
  locale,
}: Omit<FooterProps, 'settings'>) {
  const reconnecting = status === 'listening' && listeningHealth === 'reconnecting';
  const shown = reconnecting ? 'reconnecting' : initializing ? 'initializing' : status;
  // docs/behaviour.md §2.12, §17.5: still listening, and in no hurry for the answer.
  const thinkTime = shown === 'listening' && checkOpen;
  return (
    <div className="controls">
      <button
        type="button"
        className={active ? 'primary-button primary-button-end' : 'primary-button'}
        disabled={busy}
        onClick={onToggle}
        aria-describedby="status-line"
      >
        <span className="button-icon" aria-hidden="true">
          {active ? '■' : '●'}
        </span>
        {active ? t.end : t.start}
      </button>
      <div className="status-group">
        <p id="status-line" className={`status status-${shown}`}>
          <span className="status-dot" aria-hidden="true" />
          <span className="visually-hidden">{t.statusLabel}: </span>
          {t[shown]}
          {thinkTime && <span className="status-think-time"> {t.takeYourTime}</span>}
        </p>
        {status === 'speaking' && (
          <button
            type="button"
            className="speech-button"
            onClick={onSkip}
            title={t.skipLabel}
            aria-keyshortcuts="Escape"
          >
            {t.skip}
          </button>
        )}
        {status === 'listening' && canReplay && (
          <button type="button" className="speech-button" onClick={onReplay} title={t.replayLabel}>
            {t.replay}
          </button>
        )}
        <StarCount t={t} locale={locale} stars={stars} />
      </div>
      <label className="field speed-field">
        <span className="field-label">{t.speed}</span>
        <select
          value={String(speed)}
          onChange={(event) => {
            const chosen = PLAYBACK_SPEEDS.find((option) => String(option) === event.target.value);
            if (chosen !== undefined) onSpeed(chosen);
          }}
        >
          {PLAYBACK_SPEEDS.map((option) => (
            <option key={option} value={String(option)}>
              {option}×
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

export function Copyright({ t, settings }: { readonly t: Messages; readonly settings: WebSettings }) {
  return <p className="copyright">{format(t.copyright, { provider: settings.providerName })}</p>;
}
