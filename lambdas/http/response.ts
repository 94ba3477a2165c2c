import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ErrorBody } from '../contract/errors';
import type { ApiError } from '../lib/api-error';

const BASE_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** An answer with nothing in it (204): same no-store, nosniff rules, no media type. */
export function emptyResponse(headers: Readonly<Record<string, string>> = {}): APIGatewayProxyResult {
  const { 'Content-Type': _none, ...base } = BASE_HEADERS;
  return { statusCode: 204, headers: { ...base, ...headers }, body: '' };
}

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): APIGatewayProxyResult {
  return { statusCode: status, headers: { ...BASE_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** The headers of a streamed answer: its media type under the same no-store, nosniff rules. */
export function streamHeaders(
  contentType: string,
  headers: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return { ...BASE_HEADERS, 'Content-Type': contentType, ...headers };
}

export function errorResponse(error: ApiError, headers: Record<string, string> = {}): APIGatewayProxyResult {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  return jsonResponse(error.status, body, headers);
}
