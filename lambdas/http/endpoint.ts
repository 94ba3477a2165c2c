import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { z } from 'zod';
import { MAX_BODY_BYTES } from '../contract/limits';
import { ApiError } from './api-error';
import { errorFields, log } from './log';
import { requireSameSite, type OriginRule } from './origin';
import { parseBody } from './request';
import { errorResponse, jsonResponse } from './response';

/** What an endpoint's service call returns: the status and the JSON body to send. */
export interface Reply<T> {
  readonly status: number;
  readonly body: T;
  /** Extra response headers, e.g. which tutor answered (`X-Astro-Tutor`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The slice of an API Gateway REST (payload v1) event the handlers read. */
export type ApiEvent = Pick<
  APIGatewayProxyEvent,
  'httpMethod' | 'path' | 'headers' | 'body' | 'isBase64Encoded'
> & {
  requestContext?: Partial<Pick<APIGatewayProxyEvent['requestContext'], 'requestId'>> | null;
};

export type ApiHandler = (event: ApiEvent) => Promise<APIGatewayProxyResult>;

export interface EndpointSpec<S extends z.ZodType, T> {
  /** The route, for logs: e.g. `/api/feedback`. */
  readonly route: string;
  /** Which origins are the site's own: a cross-site request is refused before anything else. */
  readonly origins: OriginRule;
  readonly schema: S;
  readonly maxBodyBytes?: number;
  readonly allowEmptyBody?: boolean;
  readonly handle: (input: z.output<S>, context: { readonly requestId: string }) => Promise<Reply<T>>;
}

/**
 * Wraps one endpoint's logic in the HTTP rules every endpoint shares: POST only, same site only, body
 * limits and validation, typed errors mapped to the contract's codes, nothing raw escaping, one log line per request.
 */
export function defineEndpoint<S extends z.ZodType, T>(spec: EndpointSpec<S, T>): ApiHandler {
  return async (event) => {
    const started = performance.now();
    const requestId = event.requestContext?.requestId ?? crypto.randomUUID();
    let result: APIGatewayProxyResult;
    let errorCode: string | undefined;
    try {
      if (event.httpMethod !== 'POST') {
        throw new ApiError('method_not_allowed', `${spec.route} accepts POST only.`);
      }
      requireSameSite(event, spec.origins);
      const input = parseBody(event, spec.schema, {
        maxBytes: spec.maxBodyBytes ?? MAX_BODY_BYTES,
        allowEmpty: spec.allowEmptyBody ?? false,
      });
      const reply = await spec.handle(input, { requestId });
      result = jsonResponse(reply.status, reply.body, reply.headers);
    } catch (error) {
      const apiError = toApiError(error);
      errorCode = apiError.code;
      if (apiError.status >= 500) {
        log.error('request failed', {
          route: spec.route,
          requestId,
          code: apiError.code,
          ...causeFields(error),
        });
      }
      result = errorResponse(apiError, apiError.code === 'method_not_allowed' ? { Allow: 'POST' } : {});
    }
    log.info('request', {
      route: spec.route,
      method: event.httpMethod,
      status: result.statusCode,
      durationMs: Math.round(performance.now() - started),
      errorCode,
      requestId,
    });
    return result;
  };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('internal_error', 'Something went wrong on our side. Please try again.');
}

function causeFields(error: unknown) {
  const cause = error instanceof ApiError && error.cause !== undefined ? error.cause : error;
  return errorFields(cause);
}

/** The answer for a path no endpoint serves. */
export function notFound(path: string): APIGatewayProxyResult {
  return errorResponse(new ApiError('not_found', `No API endpoint at ${path.slice(0, 200)}.`));
}
