import type { ErrorBody, ErrorCode } from '../../../lambdas/contract/errors';
import { settings } from '../app/env';

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

export interface JsonReply {
  readonly body: unknown;
  readonly headers: Headers;
}

/**
 * POSTs JSON to the API and returns the parsed body of a 2xx answer. Anything else throws an
 * ApiRequestError whose message is `API call failed: <status>` (SPEC §8); the server's own message is
 * read only for the code, never shown.
 */
export async function postJson(path: string, body: unknown, signal?: AbortSignal): Promise<JsonReply> {
  const response = await fetch(`${settings.apiBase}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    throw new ApiRequestError(
      `API call failed: ${response.status}`,
      response.status,
      await errorCodeOf(response),
    );
  }
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
