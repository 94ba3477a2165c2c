/**
 * The cost limits as arithmetic (docs/behaviour.md §9.10, §12.19): what paid calls cost (models, pictures,
 * speech tokens) is bounded by the day's budget, plus what was already in flight when it was reached; what
 * the rest costs (requests, the ledger, storage, compute) is bounded per call by the requests its throttle
 * allows in a day and by its reserved concurrency. Each figure is recomputed here from the context defaults
 * and must not exceed, nor fall far below, the one docs/deploy.md states ("What it costs").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HISTORY_BUDGET } from '#lambdas/chat/history-budget';
import { readTutorConfig } from '#lambdas/config';
import { CHAT_USER_MESSAGE_MAX_CHARS, FEEDBACK_MAX_BODY_BYTES } from '#contract/limits';
import type { RouteName } from '#contract/routes';
import { DRAWN_ELSEWHERE_POLL_MS } from '#lambdas/generate-image/handler';
import { perEndpoint } from '#lambdas/endpoints';
import { bedrockPicturePrice, DEFAULT_SPEECH_TOKEN_USD } from '#lambdas/spend/prices';
import { readAstroContext } from '#infra/context';

const DAY_S = 86_400;

/** us-east-1 list prices (USD), as docs/deploy.md states them. */
const PRICE = {
  novaLiteInputPerToken: 0.3 / 1e6,
  novaLiteOutputPerToken: 2.5 / 1e6,
  /** Content filters and denied topics, $0.15 per 1,000 text units each (a unit: up to 1,000 characters). */
  guardrailPerTextUnit: (0.15 + 0.15) / 1000,
  apiGatewayRequest: 3.5 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  wafRequest: 0.6 / 1e6,
  /** CloudWatch Logs ingestion, $0.50 per GB: a request's log lines are well under 1 KB. */
  logLines: (0.5 / 1e9) * 1024,
  lambdaArmGbSecond: 0.0000133334,
  s3Put: 0.005 / 1000,
  s3Head: 0.0004 / 1000,
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
} as const;

/** Memory (GB) of each function, as the registry sizes it (lambdas/endpoints.ts). */
const MEMORY_GB = perEndpoint((endpoint) => endpoint.function.memoryMb / 1024);

/** The system prompt, the picture tool and a turn's wrapping, with room to spare (measured: ~1,600). */
const PROMPT_OVERHEAD_CHARS = 4_000;

const config = readAstroContext(() => undefined);
const maxTokens = readTutorConfig({}).maxTokens;

/** What every request pays whatever it does: API Gateway, the Lambda request, WAF, its log lines. */
const perRequest = PRICE.apiGatewayRequest + PRICE.lambdaRequest + PRICE.wafRequest + PRICE.logLines;

/** The most one reply's model calls can cost: two Converse calls (a picture's round trip), fully guarded. */
function chatReplyCost(): number {
  // Worst case one token per character (Chinese, Japanese), the whole history budget and a full message.
  const inputChars = HISTORY_BUDGET.chars + CHAT_USER_MESSAGE_MAX_CHARS + PROMPT_OVERHEAD_CHARS;
  const outputChars = maxTokens * 4;
  const model = inputChars * PRICE.novaLiteInputPerToken + maxTokens * PRICE.novaLiteOutputPerToken;
  const guardrail =
    (Math.ceil(inputChars / 1000) + Math.ceil(outputChars / 1000)) * PRICE.guardrailPerTextUnit;
  // …and the picture prompt's ApplyGuardrail, one unit.
  return 2 * (model + guardrail) + PRICE.guardrailPerTextUnit;
}

/** The most one request's paid call can cost: what the ledger charges it, and the cap counts. */
const PAID_PER_REQUEST: Record<RouteName, number> = {
  chat: chatReplyCost(),
  generateImage: bedrockPicturePrice(config.imageModelId) ?? 0,
  feedback: 0,
  speechToken: DEFAULT_SPEECH_TOKEN_USD,
};

/**
 * What one request costs besides its paid call, at worst. The ledger: chat reads three counters (day,
 * client, conversation) and writes three per model call (two calls and the picture check: nine); a picture
 * reads two, spends its ticket and writes two; a token reads two and writes two. A picture past the cap is
 * a sketch: three lookups for the picture, three for the sketch, one put.
 */
const UNPAID_PER_REQUEST: Record<RouteName, number> = {
  chat: perRequest + 3 * PRICE.dynamoReadUnit + 9 * PRICE.dynamoWriteUnit,
  generateImage:
    perRequest + 6 * PRICE.s3Head + PRICE.s3Put + 2 * PRICE.dynamoReadUnit + 3 * PRICE.dynamoWriteUnit,
  // One write unit per KB of the largest body the contract allows.
  feedback: perRequest + (FEEDBACK_MAX_BODY_BYTES / 1024) * PRICE.dynamoWriteUnit,
  speechToken: perRequest + 2 * PRICE.dynamoReadUnit + 2 * PRICE.dynamoWriteUnit,
};

const concurrency = (route: RouteName) =>
  config.reservedConcurrency === false ? 0 : config.reservedConcurrency[route];

function allowedPerDay(route: RouteName): number {
  return config.throttle[route].rateLimit * DAY_S;
}

/** The most a function can run in a day: its reserved concurrency, busy all day. */
function computeCap(route: RouteName): number {
  return concurrency(route) * DAY_S * MEMORY_GB[route] * PRICE.lambdaArmGbSecond;
}

/**
 * A picture request whose ticket another function spent looks for that picture every DRAWN_ELSEWHERE_POLL_MS
 * (three lookups and a conditional write each): at most every instance doing so all day.
 */
function pollingCap(): number {
  const polls = concurrency('generateImage') * DAY_S * (1000 / DRAWN_ELSEWHERE_POLL_MS);
  return polls * (3 * PRICE.s3Head + PRICE.dynamoWriteUnit);
}

function unpaidPerDay(route: RouteName): number {
  return (
    allowedPerDay(route) * UNPAID_PER_REQUEST[route] +
    computeCap(route) +
    (route === 'generateImage' ? pollingCap() : 0)
  );
}

/** Paid calls: the day's budget, plus at most one paid call per function instance already in flight. */
function paidPerDay(): number {
  const routes: RouteName[] = ['chat', 'generateImage', 'feedback', 'speechToken'];
  const inFlight = routes.reduce((sum, route) => sum + concurrency(route) * PAID_PER_REQUEST[route], 0);
  return config.dailyBudgetUsd + inFlight;
}

const deployDoc = () => readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');

/** docs/deploy.md's stated worst case in the row that starts with `label` (its last bold dollar figure). */
function stated(label: string): number {
  const row = deployDoc()
    .split('\n')
    .find((line) => line.startsWith(`| ${label} `));
  const figures = [...(row ?? '').matchAll(/\*\*\$([\d,.]+)\*\*/g)];
  const figure = figures.at(-1)?.[1];
  if (!figure) throw new Error(`docs/deploy.md has no worst-case row for ${label}`);
  return Number(figure.replaceAll(',', ''));
}

/** The stated figure holds the computed one and overstates it by at most a dollar (it is rounded up). */
function expectStated(computed: number, label: string): void {
  const figure = stated(label);
  expect(computed).toBeLessThanOrEqual(figure);
  expect(figure).toBeLessThanOrEqual(Math.ceil(computed) + 1);
}

describe('the worst a day can cost', () => {
  it.each<RouteName>(['chat', 'generateImage', 'feedback', 'speechToken'])(
    '%s: the requests its throttle allows × what each costs unpaid, plus its compute, is docs/deploy.md’s figure',
    (route) => {
      expectStated(unpaidPerDay(route), `\`/api/${route}\``);
    },
  );

  it('bounds every paid call by the day’s budget plus what was already in flight', () => {
    expect(config.dailyBudgetUsd).toBe(25);
    expectStated(paidPerDay(), 'Paid calls');
  });

  it('adds up to the whole day’s worst case docs/deploy.md states', () => {
    const routes: RouteName[] = ['chat', 'generateImage', 'feedback', 'speechToken'];
    const total = paidPerDay() + routes.reduce((sum, route) => sum + unpaidPerDay(route), 0);
    expectStated(total, '**In all**');
  });

  it('names the allowed requests per day docs/deploy.md shows', () => {
    expect(allowedPerDay('chat')).toBe(259_200);
    expect(allowedPerDay('generateImage')).toBe(86_400);
    expect(allowedPerDay('feedback')).toBe(86_400);
    expect(allowedPerDay('speechToken')).toBe(172_800);
  });
});

/**
 * The classroom the limits are sized for: 30 learners behind one school address, each starting a
 * conversation, then at most 2 turns a minute (a spoken turn takes 30 s or more), a picture with at most
 * every other reply, a speech token at Start and a refresh 8 minutes on, one feedback; two such classes at
 * once for the whole site.
 */
describe('a classroom of 30 behind one address', () => {
  const LEARNERS = 30;
  const chatsIn5Minutes = LEARNERS * (1 + 2 * 5);

  it('gets, in any 5 minutes from its one address, every request it makes (WAF)', () => {
    expect(config.wafRateLimits.chat).toBeGreaterThanOrEqual(chatsIn5Minutes);
    expect(config.wafRateLimits.generateImage).toBeGreaterThanOrEqual(Math.ceil(chatsIn5Minutes / 2));
    expect(config.wafRateLimits.speechToken).toBeGreaterThanOrEqual(LEARNERS * 2);
    expect(config.wafRateLimits.feedback).toBeGreaterThanOrEqual(LEARNERS);
    // …while one address alone can never take the whole site's chat throttle.
    expect(config.wafRateLimits.chat / 300).toBeLessThan(config.throttle.chat.rateLimit);
  });

  it('is served with another class at once, and starts together (throttles and concurrency)', () => {
    const perSecond = (2 * chatsIn5Minutes) / 300;
    expect(config.throttle.chat.rateLimit).toBeGreaterThanOrEqual(perSecond);
    expect(config.throttle.chat.burstLimit).toBeGreaterThanOrEqual(LEARNERS);
    expect(config.throttle.speechToken.burstLimit).toBeGreaterThanOrEqual(LEARNERS);
    // A streamed reply takes about 5 seconds.
    expect(concurrency('chat')).toBeGreaterThanOrEqual(Math.ceil(perSecond * 5));
  });
});
