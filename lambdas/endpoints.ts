/**
 * The endpoint registry: one row per API call, read by everything that serves or deploys one: each
 * handler (its path, schema and body limit), the local server (`lambdas/local/local-api.ts`: which paths
 * it serves, with which body limit), the CDK app (`infra/`: the REST API's routes and request models, one
 * Lambda per row with its sizing, the default throttles, concurrency caps and WAF limits) and the tests
 * that prove they agree (`test/infra/endpoint-registry.test.ts`).
 *
 * Adding an endpoint is one row here plus its handler (`lambdas/<folder>/handler.ts`, registered in
 * `lambdas/endpoint-handlers.ts`): the type below refuses a route of the contract without a row.
 *
 * This module is plain data and the contract's schemas only: the CDK app and every Lambda bundle import
 * it, so it must never import a handler or a service (those live in `lambdas/endpoint-handlers.ts`).
 */
import type { z } from 'zod';
import { FEEDBACK_MAX_BODY_BYTES, MAX_BODY_BYTES } from './contract/limits';
import { API_ROUTES, type ApiPath, type RouteName } from './contract/routes';
import {
  chatRequestSchema,
  feedbackRequestSchema,
  generateImageRequestSchema,
  speechTokenRequestSchema,
} from './contract/schemas';

/** What a request must be before the endpoint's own logic runs (docs/behaviour.md §7.2). */
export interface EndpointRequest {
  readonly schema: z.ZodType;
  /** Bytes after base64 decoding; a larger body is 413 `payload_too_large` (docs/behaviour.md §7.2). */
  readonly maxBodyBytes: number;
  /** An empty body is allowed (it then has no API Gateway request model: nothing to check). */
  readonly allowEmptyBody: boolean;
}

/** The endpoint's Lambda when deployed (docs/behaviour.md §16.3). */
export interface EndpointFunction {
  /** The folder under `lambdas/` whose `handler.ts` exports the Lambda's `handler`. */
  readonly folder: string;
  readonly memoryMb: number;
  /** Below API Gateway's 29 s, so the function answers with the API's own 504 first. */
  readonly timeoutSeconds: number;
  /** The cost cap unless CDK context `reservedConcurrency` says otherwise (docs/behaviour.md §9.10). */
  readonly reservedConcurrency: number;
  /**
   * Lambda response streaming: API Gateway invokes it with InvokeWithResponseStream (response transfer
   * mode STREAM) and its `handler.ts` exports a `streamingLambda` (docs/behaviour.md §11.7).
   */
  readonly streaming: boolean;
  /**
   * Data folders copied beside the bundle (repository path → folder name next to index.mjs), which the
   * code reads at run time instead of carrying them compiled in, e.g. the offline lessons
   * (docs/behaviour.md §15.9).
   */
  readonly besideBundle?: Readonly<Record<string, string>>;
}

/** Default abuse limits, each overridable in CDK context (docs/behaviour.md §9.10, docs/deploy.md). */
export interface EndpointLimits {
  /** API Gateway's method throttle: requests per second, steady and burst. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** WAF: requests per IP to this call in any 5-minute window (WAF's minimum is 10). */
  readonly wafPer5Minutes: number;
}

export interface Endpoint {
  readonly path: ApiPath;
  readonly request: EndpointRequest;
  readonly function: EndpointFunction;
  readonly limits: EndpointLimits;
}

/**
 * The registry. The limits are sized for classes of 30 learners, each class behind one school address
 * (docs/deploy.md, "What it costs", gives the arithmetic): the WAF's per-address limits for one class, the
 * throttles and concurrency for two classes at once. The day's budget bounds what paid calls cost
 * (docs/behaviour.md §12.19); these bound the rest (requests, compute) and keep one client from the others.
 */
export const ENDPOINTS = {
  chat: {
    path: API_ROUTES.chat,
    request: { schema: chatRequestSchema, maxBodyBytes: MAX_BODY_BYTES, allowEmptyBody: false },
    function: {
      folder: 'chat',
      memoryMb: 512,
      timeoutSeconds: 28,
      // Two classes at 1.1 replies a second each, a streamed reply taking about 5 s.
      reservedConcurrency: 15,
      streaming: true,
      // The lessons ground the model's replies, one language at a time (docs/behaviour.md §17.6), and are
      // the offline tutor's data: files beside the bundle (lambdas/tutor/offline/knowledge-files.ts).
      besideBundle: { 'lambdas/tutor/offline/knowledge': 'knowledge' },
    },
    // A class: 30 openings + 30 × 2 turns a minute × 5 = 330 in 5 minutes; two classes: 2.2 a second.
    limits: { throttle: { rateLimit: 3, burstLimit: 30 }, wafPer5Minutes: 360 },
  },
  generateImage: {
    path: API_ROUTES.generateImage,
    request: { schema: generateImageRequestSchema, maxBodyBytes: MAX_BODY_BYTES, allowEmptyBody: false },
    function: {
      folder: 'generate-image',
      memoryMb: 512,
      timeoutSeconds: 28,
      reservedConcurrency: 5,
      streaming: false,
    },
    // A picture with at most every other reply: 165 in 5 minutes for a class; the first ones arrive together.
    limits: { throttle: { rateLimit: 1, burstLimit: 15 }, wafPer5Minutes: 180 },
  },
  feedback: {
    path: API_ROUTES.feedback,
    request: { schema: feedbackRequestSchema, maxBodyBytes: FEEDBACK_MAX_BODY_BYTES, allowEmptyBody: false },
    function: {
      folder: 'feedback',
      memoryMb: 256,
      timeoutSeconds: 10,
      reservedConcurrency: 5,
      streaming: false,
    },
    // One feedback a conversation: 30 in 5 minutes for a class.
    limits: { throttle: { rateLimit: 1, burstLimit: 10 }, wafPer5Minutes: 60 },
  },
  speechToken: {
    path: API_ROUTES.speechToken,
    request: { schema: speechTokenRequestSchema, maxBodyBytes: MAX_BODY_BYTES, allowEmptyBody: true },
    function: {
      folder: 'speech-token',
      memoryMb: 256,
      timeoutSeconds: 10,
      reservedConcurrency: 5,
      streaming: false,
    },
    // A token at Start and a refresh 8 minutes on: at most 2 a learner in 5 minutes; a class starts together.
    limits: { throttle: { rateLimit: 2, burstLimit: 30 }, wafPer5Minutes: 60 },
  },
} as const satisfies Readonly<Record<RouteName, Endpoint>>;

export type EndpointName = keyof typeof ENDPOINTS;
/** A handler folder under `lambdas/`, as the CDK function's entry takes it. */
export type EndpointFolder = (typeof ENDPOINTS)[EndpointName]['function']['folder'];

/** The endpoints in the registry's order. */
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** One value per endpoint, e.g. a default per call for the CDK context or a handler per path. */
export function perEndpoint<T>(
  value: (endpoint: Endpoint, name: EndpointName) => T,
): Record<EndpointName, T> {
  return Object.fromEntries(ENDPOINT_NAMES.map((name) => [name, value(ENDPOINTS[name], name)])) as Record<
    EndpointName,
    T
  >;
}
