import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#lambdas/lib/api-error';
import { errorFields, log, setLogSink, type LogLevel } from '#lambdas/lib/log';

// The structured log (docs/behaviour.md §12.12): one JSON line per entry at or above the level, and an
// error named without anything it may carry from the learner.

afterEach(() => {
  setLogSink(() => undefined, 'silent');
  vi.useRealTimers();
});

function written(level: LogLevel) {
  const lines: string[] = [];
  setLogSink((line) => lines.push(line), level);
  log.debug('d', { n: 1 });
  log.info('i');
  log.warn('w');
  log.error('e', { code: 'x' });
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the log', () => {
  it('writes one JSON object per line with level, time, message and fields', () => {
    vi.useFakeTimers({ now: Date.parse('2026-02-03T04:05:06.007Z'), toFake: ['Date'] });
    const lines: string[] = [];
    setLogSink((line) => lines.push(line), 'debug');

    log.info('request', { route: '/api/chat', status: 200, cached: false, absent: undefined });

    expect(lines).toEqual([
      '{"level":"info","time":"2026-02-03T04:05:06.007Z","message":"request","route":"/api/chat","status":200,"cached":false}',
    ]);
  });

  it.each([
    ['debug', ['d', 'i', 'w', 'e']],
    ['info', ['i', 'w', 'e']],
    ['warn', ['w', 'e']],
    ['error', ['e']],
    ['silent', []],
  ] as const)('at %s, writes %j', (level, messages) => {
    const entries = written(level);
    expect(entries.map((entry) => entry.message)).toEqual(messages);
    for (const entry of entries)
      expect(entry.level).toBe({ d: 'debug', i: 'info', w: 'warn', e: 'error' }[String(entry.message)]);
  });

  it('gives back the sink it replaced', () => {
    const first = () => undefined;
    setLogSink(first);
    expect(setLogSink(() => undefined)).toBe(first);
  });

  it('writes to stdout by default, at the level LOG_LEVEL names', async () => {
    vi.resetModules();
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'WARN';
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const fresh = await import('#lambdas/lib/log');
      fresh.log.info('not this');
      fresh.log.warn('this');
      expect(stdout.mock.calls.map(([text]) => JSON.parse(String(text)).message)).toEqual(['this']);
      expect(String(stdout.mock.calls[0]?.[0]).endsWith('}\n')).toBe(true);
    } finally {
      stdout.mockRestore();
      process.env.LOG_LEVEL = previous;
    }
  });

  it('falls back to info when LOG_LEVEL is unset or unknown', async () => {
    const previous = process.env.LOG_LEVEL;
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      for (const value of [undefined, 'loud']) {
        vi.resetModules();
        if (value === undefined) delete process.env.LOG_LEVEL;
        else process.env.LOG_LEVEL = value;
        const fresh = await import('#lambdas/lib/log');
        fresh.log.debug('not this');
        fresh.log.info('this');
      }
      expect(stdout.mock.calls.map(([text]) => JSON.parse(String(text)).message)).toEqual(['this', 'this']);
    } finally {
      stdout.mockRestore();
      process.env.LOG_LEVEL = previous;
    }
  });
});

describe('naming an error for the log', () => {
  it('names an error by its name and message', () => {
    expect(errorFields(new TypeError('socket hang up'))).toEqual({
      errorName: 'TypeError',
      errorMessage: 'socket hang up',
    });
    expect(errorFields(new ApiError('upstream_error', 'Try again.'))).toEqual({
      errorName: 'ApiError',
      errorMessage: 'Try again.',
    });
  });

  it('names an AWS service error by name, status and message length only', () => {
    const error = Object.assign(new Error('Value "my secret question" is invalid'), {
      name: 'ValidationException',
      $metadata: { httpStatusCode: 400 },
    });

    expect(errorFields(error)).toEqual({
      errorName: 'ValidationException',
      upstreamStatus: 400,
      errorMessageLength: 37,
    });
  });

  it('names anything thrown that is not an error by its type only', () => {
    expect(errorFields('secret words')).toEqual({ errorName: 'string' });
    expect(errorFields(undefined)).toEqual({ errorName: 'undefined' });
  });
});
