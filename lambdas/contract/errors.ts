/**
 * Every error the API answers with: `{"error": {"code", "message"}}` and the status below (docs/behaviour.md
 * §8.1–§8.2). Plain data, so the web app can type the errors it reads.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  content_filtered: 422,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  not_configured: 503,
  over_budget: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  readonly error: { readonly code: ErrorCode; readonly message: string };
}

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
