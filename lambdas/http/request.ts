import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod';
import { ApiError } from '../lib/api-error';

/** Header lookup that ignores case, as HTTP does (API Gateway passes the client's spelling through). */
export function header(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/**
 * Whether the Prefer header (RFC 7240) asks for `preference` (a token, any letter case, its parameters
 * aside). An optional behaviour the client opts into: a server that does not know it carries on as usual.
 */
export function prefers(event: Pick<APIGatewayProxyEvent, 'headers'>, preference: string): boolean {
  const wanted = preference.toLowerCase();
  return (header(event, 'prefer') ?? '')
    .split(',')
    .some((part) => part.split(';')[0]?.trim().toLowerCase() === wanted);
}

/** Whether the Accept header names `mediaType` (exactly, any letter case) without refusing it by `q=0`. */
export function accepts(event: Pick<APIGatewayProxyEvent, 'headers'>, mediaType: string): boolean {
  const wanted = mediaType.toLowerCase();
  return (header(event, 'accept') ?? '').split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== wanted) return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

function isJsonMediaType(contentType: string): boolean {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

/** The raw body as bytes, decoding API Gateway's base64 encoding when it is flagged. */
function bodyBytes(event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded'>): Buffer {
  if (event.body === null || event.body === undefined) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

export interface BodyRules {
  readonly maxBytes: number;
  /** An endpoint that takes no input (speechToken) accepts a missing body as `undefined`. */
  readonly allowEmpty?: boolean;
}

/**
 * Turns an API Gateway event's body into a validated value, or throws the ApiError the contract names:
 * 413 over size, 415 not JSON, 400 `invalid_json` unparsable, 400 `invalid_request` naming the field.
 */
export function parseBody<S extends z.ZodType>(
  event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded' | 'headers'>,
  schema: S,
  rules: BodyRules,
): z.output<S> {
  const bytes = bodyBytes(event);
  if (bytes.length > rules.maxBytes) {
    throw new ApiError('payload_too_large', `The request body is larger than ${rules.maxBytes} bytes.`);
  }
  const text = bytes.toString('utf8').trim();
  let raw: unknown = undefined;
  if (text.length === 0) {
    if (!rules.allowEmpty) throw new ApiError('invalid_json', 'The request body must be a JSON object.');
  } else {
    const contentType = header(event, 'content-type');
    if (!contentType || !isJsonMediaType(contentType)) {
      throw new ApiError('unsupported_media_type', 'The request body must be sent as application/json.');
    }
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ApiError('invalid_json', 'The request body is not valid JSON.');
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new ApiError('invalid_json', 'The request body must be a JSON object.');
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ApiError('invalid_request', describeIssue(parsed.error));
  return parsed.data;
}

/** The first validation issue as "field.path: what is wrong", never echoing the value sent. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is invalid.';
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  return `${field}: ${issue.message}`;
}
