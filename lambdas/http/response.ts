import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ErrorBody } from '../contract/errors';
import type { ApiError } from '../lib/api-error';

const BASE_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

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
