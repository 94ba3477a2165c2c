import { ApiError } from '../lib/api-error';
import type { ApiHandler, StreamingApiHandler } from './endpoint';
import { errorFields, log } from '../lib/log';
import { errorResponse } from './response';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Builds a Lambda's handler once, at cold start, from its environment. If the configuration is invalid
 * the function still answers every request with 503 `not_configured` (and logs which variable is
 * wrong) instead of failing to load, which API Gateway would turn into a bare 502 without the error JSON.
 *
 * Inside Lambda (`AWS_LAMBDA_FUNCTION_NAME` is set) it builds while the module loads, so clients are made
 * during init. Anywhere else (the local server and tests import these modules for their factories) it
 * builds on first use, so importing a module never reads the machine's environment or logs about it.
 */
export function handlerAtColdStart(route: string, build: () => ApiHandler, env?: Env): ApiHandler;
export function handlerAtColdStart(
  route: string,
  build: () => StreamingApiHandler,
  env?: Env,
): StreamingApiHandler;
export function handlerAtColdStart(
  route: string,
  build: () => StreamingApiHandler,
  env: Env = process.env,
): StreamingApiHandler {
  let built: StreamingApiHandler | ApiError | undefined;
  const ready = (): StreamingApiHandler | ApiError => {
    if (built === undefined) {
      try {
        built = build();
      } catch (error) {
        log.error('configuration invalid', { route, ...errorFields(error) });
        built = new ApiError('not_configured', 'This endpoint is not configured on the server.');
      }
    }
    return built;
  };
  if (env.AWS_LAMBDA_FUNCTION_NAME) ready();
  return async (event) => {
    const handler = ready();
    return handler instanceof ApiError ? errorResponse(handler) : handler(event);
  };
}
