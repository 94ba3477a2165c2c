/**
 * The cost limits as arithmetic (docs/behaviour.md §9.10): for each call, the requests its limits allow in a
 * day × the most one request can cost, plus the most its reserved concurrency can run, must not exceed the
 * worst case docs/deploy.md states ("What it costs": "The worst a day can cost").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HISTORY_BUDGET } from '#lambdas/chat/history-budget';
import { readTutorConfig } from '#lambdas/config';
import { CHAT_USER_MESSAGE_MAX_CHARS, FEEDBACK_MAX_BODY_BYTES } from '#contract/limits';
import type { RouteName } from '#contract/routes';
import { perEndpoint } from '#lambdas/endpoints';
import { readAstroContext } from '#infra/context';

const DAY_S = 86_400;

/** us-east-1 list prices (USD), as docs/deploy.md states them. */
const PRICE = {
  novaLiteInputPerToken: 0.3 / 1e6,
  novaLiteOutputPerToken: 2.5 / 1e6,
  /** Content filters and denied topics, $0.15 per 1,000 text units each (a unit: up to 1,000 characters). */
  guardrailPerTextUnit: (0.15 + 0.15) / 1000,
  novaCanvasImage: 0.04,
  apiGatewayRequest: 3.5 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  wafRequest: 0.6 / 1e6,
  lambdaArmGbSecond: 0.0000133334,
  s3Put: 0.005 / 1000,
  s3Head: 0.0004 / 1000,
  dynamoWriteUnit: 0.625 / 1e6,
} as const;

/** Memory (GB) of each function, as the registry sizes it (lambdas/endpoints.ts). */
const MEMORY_GB = perEndpoint((endpoint) => endpoint.function.memoryMb / 1024);

/** The system prompt, the picture tool and a turn's wrapping, with room to spare (measured: ~1,600). */
const PROMPT_OVERHEAD_CHARS = 4_000;

const config = readAstroContext(() => undefined);
const maxTokens = readTutorConfig({}).maxTokens;

/** What every request pays whatever it does: API Gateway, the Lambda request, WAF. */
const perRequest = PRICE.apiGatewayRequest + PRICE.lambdaRequest + PRICE.wafRequest;

/** The most one reply can cost: two Converse calls (a picture's tool round trip), each fully guarded. */
function chatReplyCost(): number {
  // Worst case one token per character (Chinese, Japanese), the whole history budget and a full message.
  const inputChars = HISTORY_BUDGET.chars + CHAT_USER_MESSAGE_MAX_CHARS + PROMPT_OVERHEAD_CHARS;
  const outputChars = maxTokens * 4;
  const model = inputChars * PRICE.novaLiteInputPerToken + maxTokens * PRICE.novaLiteOutputPerToken;
  const guardrail =
    (Math.ceil(inputChars / 1000) + Math.ceil(outputChars / 1000)) * PRICE.guardrailPerTextUnit;
  return 2 * (model + guardrail);
}

const PER_REQUEST_COST: Record<RouteName, number> = {
  chat: chatReplyCost() + perRequest,
  // A ticket is needed, and a picture already drawn costs nothing: every request a new picture is the worst.
  generateImage: PRICE.novaCanvasImage + PRICE.s3Put + 3 * PRICE.s3Head + perRequest,
  // One write unit per KB of the largest body the contract allows.
  feedback: (FEEDBACK_MAX_BODY_BYTES / 1024) * PRICE.dynamoWriteUnit + perRequest,
  speechToken: perRequest,
};

function allowedPerDay(route: RouteName): number {
  return config.throttle[route].rateLimit * DAY_S;
}

/** The most a function can run in a day: its reserved concurrency, busy all day. */
function computeCap(route: RouteName): number {
  const concurrency = config.reservedConcurrency === false ? 0 : config.reservedConcurrency[route];
  return concurrency * DAY_S * MEMORY_GB[route] * PRICE.lambdaArmGbSecond;
}

function worstPerDay(route: RouteName): number {
  return allowedPerDay(route) * PER_REQUEST_COST[route] + computeCap(route);
}

/** docs/deploy.md's stated worst case per day for a call: the row that starts with the call's path. */
function statedWorstCase(route: string): number {
  const readme = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const row = new RegExp(`^\\| \`/api/${route}\`.*\\*\\*\\$([\\d,]+)\\*\\*`, 'm').exec(readme);
  if (!row?.[1]) throw new Error(`docs/deploy.md has no worst-case row for /api/${route}`);
  return Number(row[1].replaceAll(',', ''));
}

describe('the worst a day can cost, per call', () => {
  it.each<RouteName>(['chat', 'generateImage', 'feedback', 'speechToken'])(
    '%s: requests allowed per day × their worst cost stays within docs/deploy.md’s figure',
    (route) => {
      const worst = worstPerDay(route);
      const stated = statedWorstCase(route);

      expect(worst).toBeLessThanOrEqual(stated);
      // …and docs/deploy.md does not overstate it either (rounded up to the dollar).
      expect(stated).toBeLessThanOrEqual(Math.ceil(worst) + 1);
    },
  );

  it('names the allowed requests per day docs/deploy.md shows', () => {
    expect(allowedPerDay('chat')).toBe(432_000);
    expect(allowedPerDay('generateImage')).toBe(86_400);
    expect(allowedPerDay('feedback')).toBe(86_400);
    expect(allowedPerDay('speechToken')).toBe(172_800);
  });

  it('lets a classroom of 30 behind one address talk, ask for pictures, get tokens and send feedback', () => {
    // In 5 minutes: 2 chat turns a minute each is 300 (×2 for a lively class); two pictures each is 60;
    // a token at start and one refresh each is 60; one feedback each is 30.
    expect(config.wafRateLimits.chat).toBeGreaterThanOrEqual(30 * 2 * 5 * 2);
    expect(config.wafRateLimits.generateImage).toBeGreaterThanOrEqual(30 * 2);
    expect(config.wafRateLimits.speechToken).toBeGreaterThanOrEqual(30 * 2);
    expect(config.wafRateLimits.feedback).toBeGreaterThanOrEqual(30);
  });
});
