/**
 * The deployment's settings, read from CDK context (`cdk.json` or `-c key=value`) and validated once with
 * zod, so a typo fails synth with a message naming the key instead of deploying something half-configured.
 * Values given on the command line arrive as strings: numbers, booleans and JSON objects are parsed here.
 */
import { z } from 'zod';
import { perEndpoint } from '../lambdas/endpoints';
import { bedrockPicturePrice, bedrockTokenPrices } from '../lambdas/spend/prices';

/** Command-line context is always a string: turn `true`, `42` or `{"chat":5}` into what it spells. */
function fromCommandLine(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

const flag = z.preprocess(fromCommandLine, z.boolean());
const count = (min: number, max: number) => z.preprocess(fromCommandLine, z.number().int().min(min).max(max));
/** A group of settings: every field has a default, so an absent group means all defaults. */
const settings = <S extends z.ZodRawShape>(shape: S) =>
  z.preprocess((value) => fromCommandLine(value) ?? {}, z.strictObject(shape));

/** Requests per second (steady) and burst, as API Gateway takes them. */
const throttle = (rateLimit: number, burstLimit: number) =>
  settings({
    rateLimit: z.preprocess(fromCommandLine, z.number().positive().max(10_000)).default(rateLimit),
    burstLimit: count(1, 5_000).default(burstLimit),
  });

/** CloudWatch Logs accepts only these retention periods (days). */
const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const reservedConcurrency = z.preprocess(
  (value) => fromCommandLine(value) ?? {},
  z.union([
    z.literal(false),
    z.strictObject(perEndpoint((endpoint) => count(1, 1000).default(endpoint.function.reservedConcurrency))),
  ]),
);

export const astroContextSchema = z
  .strictObject({
    /** API Gateway stage, also the CloudFront origin path of `/api/*`. */
    stage: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only')
      .default('prod'),
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as us-east-1')
      .default('us-east-1'),
    /** Bedrock model or cross-region inference profile id for the tutor (Converse API). */
    chatModelId: z
      .string()
      .regex(/^[a-z0-9.:-]+$/, 'a Bedrock model or inference profile id')
      .default('us.amazon.nova-2-lite-v1:0'),
    /** Bedrock picture model id (Nova Canvas / Titan Image request shape). */
    imageModelId: z
      .string()
      .regex(/^[a-z0-9.:-]+$/, 'a Bedrock model id')
      .default('amazon.nova-canvas-v1:0'),
    speechRegion: z
      .string()
      .regex(/^[a-z0-9]+$/, 'an Azure region name such as eastus')
      .default('eastus'),
    speechSecretName: z
      .string()
      .regex(/^[A-Za-z0-9/_+=.@-]{1,512}$/, 'a Secrets Manager secret name')
      .default('astro/azure-speech-key'),
    /** `create` makes an empty secret (fill it after deploy); `import` uses an existing one by name. */
    speechSecretMode: z.enum(['create', 'import']).default('create'),
    throttle: settings({
      rateLimit: z.preprocess(fromCommandLine, z.number().positive().max(10_000)).default(20),
      burstLimit: count(1, 5_000).default(40),
      // Tighter per call, by default the registry's (lambdas/endpoints.ts).
      ...perEndpoint(({ limits }) => throttle(limits.throttle.rateLimit, limits.throttle.burstLimit)),
    }),
    waf: flag.default(true),
    /** Requests per IP to /api/* in any 5-minute window before WAF answers 429. */
    wafRateLimit: count(10, 2_000_000_000).default(1000),
    /**
     * Requests per IP to each call in any 5-minute window (WAF's minimum is 10); the defaults are the
     * registry's (lambdas/endpoints.ts), sized for a classroom behind one school address.
     */
    wafRateLimits: settings(
      perEndpoint(({ limits }) => count(10, 2_000_000_000).default(limits.wafPer5Minutes)),
    ),
    /** Days a feedback item is kept (DynamoDB TTL); 400 covers a school year and its review. */
    feedbackRetentionDays: count(1, 3650).default(400),
    /** Alarm when more feedback than this is stored in one hour (a form being filled by a script). */
    feedbackPerHourAlarm: count(1, 1_000_000).default(200),
    /** A Bedrock Guardrail on every tutor call; off only where Guardrails are not offered. */
    guardrail: flag.default(true),
    /**
     * The day's cap on paid calls (USD, docs/behaviour.md §12.19): past it the offline tutor, sketches and the
     * browser's speech. Sized for a school: a few classes a day with the default models.
     */
    dailyBudgetUsd: z.preprocess(fromCommandLine, z.number().positive().max(1_000_000)).default(25),
    /** The share of the day's budget one address (an IPv6 /64) may spend. */
    clientShare: z.preprocess(fromCommandLine, z.number().positive().max(1)).default(0.05),
    /** Paid replies in one conversation; later ones come from the offline tutor. */
    conversationMaxTurns: count(1, 10_000).default(100),
    /**
     * Prices (USD) for models without a listed one, or to override it: per million input and output tokens,
     * per picture, per speech token minted (lambdas/spend/prices.ts lists the defaults').
     */
    prices: settings({
      inputUsdPerMTok: z.preprocess(fromCommandLine, z.number().min(0).max(1000)).optional(),
      outputUsdPerMTok: z.preprocess(fromCommandLine, z.number().min(0).max(1000)).optional(),
      pictureUsd: z.preprocess(fromCommandLine, z.number().min(0).max(100)).optional(),
      speechTokenUsd: z.preprocess(fromCommandLine, z.number().min(0).max(100)).optional(),
    }),
    /** The monthly AWS Budgets cost budget (USD): always created, alerts to the alarm topic and any e-mail. */
    monthlyBudgetUsd: z.preprocess(fromCommandLine, z.number().positive().max(1_000_000)).default(100),
    budgetEmail: z.email().optional(),
    domainName: z
      .string()
      .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a lower-case host name')
      .optional(),
    /** ACM certificate for `domainName`; CloudFront only takes certificates from us-east-1. */
    certificateArn: z
      .string()
      .regex(
        /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]+$/,
        'an ACM certificate ARN in us-east-1 (CloudFront requires that region)',
      )
      .optional(),
    /** CloudFront edge locations: All serves learners everywhere from nearby; 100/200 cost less per GB. */
    priceClass: z
      .preprocess(
        (value) => (typeof value === 'number' ? String(value) : value),
        z.enum(['100', '200', 'All']),
      )
      .default('All'),
    imageExpirationDays: count(1, 3650).default(30),
    logRetentionDays: z
      .preprocess(fromCommandLine, z.number())
      .refine((days) => (LOG_RETENTION_DAYS as readonly number[]).includes(days), {
        message: `one of ${LOG_RETENTION_DAYS.join(', ')}`,
      })
      .default(30),
    /** Per-function cost cap, or false for accounts whose concurrency quota is too low to reserve any. */
    reservedConcurrency,
    /** Alarm notifications by e-mail (an SNS topic encrypted with its own KMS key). */
    alarmEmail: z.email().optional(),
    /**
     * Set the region's API Gateway CloudWatch role (an account-wide setting API Gateway needs for access
     * and execution logs). Turn off when the account already has one (`aws apigateway get-account`).
     */
    apiGatewayAccountRole: flag.default(true),
    /**
     * The version of the origin-key secret both CloudFront and API Gateway use (Secrets Manager's VersionId,
     * printed by `put-secret-value`): naming a new one changes both together (docs/deploy.md, "Only through
     * CloudFront"). Unset: the secret's current value as of the deploy that created it.
     */
    originKeyVersion: z
      .string()
      .regex(/^[A-Za-z0-9-]{32,64}$/, 'a Secrets Manager VersionId (the put-secret-value answer)')
      .optional(),
  })
  .superRefine((config, context) => {
    if (config.waf && config.region !== 'us-east-1') {
      context.addIssue({
        code: 'custom',
        path: ['waf'],
        message:
          'a CloudFront web ACL can only be created in us-east-1: deploy with -c region=us-east-1, or set -c waf=false',
      });
    }
    // A geographic inference profile can only be called from a region of its geography.
    const geography = /^(us|eu|apac)\./.exec(config.chatModelId)?.[1];
    const regionPrefix = { us: 'us-', eu: 'eu-', apac: 'ap-' } as const;
    if (geography && !config.region.startsWith(regionPrefix[geography as keyof typeof regionPrefix])) {
      context.addIssue({
        code: 'custom',
        path: ['chatModelId'],
        message: `the ${geography}. inference profile cannot be called from ${config.region}; pick the profile of that region's geography (e.g. eu.amazon.nova-lite-v1:0) or a model id`,
      });
    }
    // The cap counts every paid call at its price: a model without a listed one needs it named.
    const { prices } = config;
    if (
      !bedrockTokenPrices(config.chatModelId) &&
      (prices.inputUsdPerMTok === undefined || prices.outputUsdPerMTok === undefined)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['prices'],
        message: `${config.chatModelId} has no listed price: set prices.inputUsdPerMTok and prices.outputUsdPerMTok`,
      });
    }
    if (bedrockPicturePrice(config.imageModelId) === undefined && prices.pictureUsd === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['prices'],
        message: `${config.imageModelId} has no listed price: set prices.pictureUsd`,
      });
    }
    if ((config.domainName === undefined) !== (config.certificateArn === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [config.domainName === undefined ? 'domainName' : 'certificateArn'],
        message: 'domainName and certificateArn go together',
      });
    }
  });

export type AstroConfig = z.output<typeof astroContextSchema>;
export const CONTEXT_KEYS = Object.keys(astroContextSchema.shape) as (keyof AstroConfig)[];

export class ContextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextError';
  }
}

/**
 * Reads every Astro key through `lookup` (the app's `node.tryGetContext`) and validates them together,
 * reporting every problem at once.
 */
export function readAstroContext(lookup: (key: string) => unknown): AstroConfig {
  const raw: Record<string, unknown> = {};
  for (const key of CONTEXT_KEYS) {
    const value = lookup(key);
    if (value !== undefined) raw[key] = value;
  }
  const parsed = astroContextSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `  - ${issue.path.map(String).join('.') || '(context)'}: ${issue.message}`,
  );
  throw new ContextError(
    `Invalid CDK context (set it in cdk.json or with -c key=value):\n${problems.join('\n')}`,
  );
}
