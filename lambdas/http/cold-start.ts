import { ApiError } from './api-error';
import type { ApiHandler } from './endpoint';
import { errorFields, log } from './log';
import { errorResponse } from './response';

/**
 * Builds a Lambda's handler once, at cold start, from its environment. If the configuration is invalid
 * the function still answers every request with 503 `not_configured` (and logs which variable is
 * wrong) instead of failing to load, which API Gateway would turn into a bare 502 without the error JSON.
 */
export function handlerAtColdStart(route: string, build: () => ApiHandler): ApiHandler {
  let built: ApiHandler | ApiError;
  try {
    built = build();
  } catch (error) {
    log.error('configuration invalid', { route, ...errorFields(error) });
    built = new ApiError('not_configured', 'This endpoint is not configured on the server.');
  }
  const ready = built;
  return async (event) => (ready instanceof ApiError ? errorResponse(ready) : ready(event));
}
