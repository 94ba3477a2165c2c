import { setLogSink } from '#lambdas/lib/log';

export interface CapturedLogs {
  /** Every line written since capture started, as JSON text. */
  readonly lines: string[];
  /** The lines parsed. */
  entries(): Record<string, unknown>[];
  /** Puts the previous sink back (and the level tests run at: silent). */
  restore(): void;
}

/** Captures every log line (all levels) so a test can assert what was, and was not, logged. */
export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const previous = setLogSink((line) => lines.push(line), 'debug');
  return {
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    restore: () => {
      setLogSink(previous, 'silent');
    },
  };
}
