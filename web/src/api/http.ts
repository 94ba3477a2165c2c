import type { ErrorBody, ErrorCode } from '#contract/errors';
import { settings } from '../lib/env';

/** A non-OK answer from the API, with the contract's error code when the body carried one. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | undefined,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/**
 * No call waits for ever: the API's own deadlines end at 28 s (API Gateway gives up at 29 s), so a
 * client still waiting after 30 s is talking to a server or network that has gone away.
 */
export const API_DEADLINE_MS = 30_000;

/** The caller's signal, if any, aborted also after `ms` (AbortSignal.any is missing before Safari 17.4). */
export function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  if (!signal) return timeout;
  const controller = new AbortController();
  const abort = (source: AbortSignal) => () => controller.abort(source.reason);
  for (const source of [signal, timeout]) {
    if (source.aborted) controller.abort(source.reason);
    else source.addEventListener('abort', abort(source), { once: true });
  }
  return controller.signal;
}

export interface JsonReply {
  readonly body: unknown;
  readonly headers: Headers;
}

/**
 * POSTs JSON to the API and returns the parsed body of a 2xx answer (undefined for 204 No Content).
 * Anything else throws an ApiRequestError whose message is `API call failed: <status>` (docs/behaviour.md
 * §7.10); the server's own message is read only for the code, never shown.
 */
export async function postJson(
  path: string,
  body: unknown,
  signal?: AbortSignal,
  deadlineMs: number = API_DEADLINE_MS,
  headers: Readonly<Record<string, string>> = {},
): Promise<JsonReply> {
  const response = await fetch(`${settings.apiBase}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: withTimeout(signal, deadlineMs),
  });
  if (!response.ok) {
    throw new ApiRequestError(
      `API call failed: ${response.status}`,
      response.status,
      await errorCodeOf(response),
    );
  }
  if (response.status === 204) return { body: undefined, headers: response.headers };
  // The body is read under the same signal: a server that stalls mid-body is cut off by the deadline too.
  return { body: await response.json(), headers: response.headers };
}

/** The contract's error code in a non-OK answer's body, if it carried one. */
export async function errorCodeOf(response: Response): Promise<ErrorCode | undefined> {
  try {
    const body = (await response.json()) as Partial<ErrorBody> | null;
    return body?.error?.code;
  } catch {
    return undefined;
  }
}

/** Narrows an unknown JSON body to an object, or fails as a malformed answer. */
export function objectBody(body: unknown, path: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiRequestError(`Malformed answer from ${path}`, 200, undefined);
  }
  return body as Record<string, unknown>;
}
