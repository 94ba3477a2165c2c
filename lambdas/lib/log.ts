/**
 * Structured logs: one JSON object per line on stdout, which CloudWatch indexes as fields.
 * Callers pass identifiers, names, codes and figures only: never request bodies, keys or tokens.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFields = Record<string, string | number | boolean | undefined | null>;
export type LogSink = (line: string) => void;

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function levelFromEnv(): LogLevel {
  const value = process.env.LOG_LEVEL?.toLowerCase();
  return value && value in LEVELS ? (value as LogLevel) : 'info';
}

let threshold = LEVELS[levelFromEnv()];
let sink: LogSink = (line) => process.stdout.write(`${line}\n`);

function write(level: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields): void {
  if (LEVELS[level] < threshold) return;
  sink(JSON.stringify({ level, time: new Date().toISOString(), message, ...fields }));
}

export const log = {
  debug: (message: string, fields?: LogFields) => write('debug', message, fields),
  info: (message: string, fields?: LogFields) => write('info', message, fields),
  warn: (message: string, fields?: LogFields) => write('warn', message, fields),
  error: (message: string, fields?: LogFields) => write('error', message, fields),
};

/** Redirects log lines (tests read them to prove secrets never appear). Returns the previous sink. */
export function setLogSink(next: LogSink, level: LogLevel = 'debug'): LogSink {
  const previous = sink;
  sink = next;
  threshold = LEVELS[level];
  return previous;
}

/**
 * Names an unknown thrown value for a log line without its stack or any payload it may carry. An AWS
 * service's error (it has `$metadata`) is logged by name, status and message length only: its message
 * can quote the request, and so the learner's words.
 */
export function errorFields(error: unknown): LogFields {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  if (metadata !== undefined) {
    return {
      errorName: error.name,
      upstreamStatus: metadata.httpStatusCode,
      errorMessageLength: error.message.length,
    };
  }
  return { errorName: error.name, errorMessage: error.message };
}
