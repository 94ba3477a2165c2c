/**
 * Environment configuration, parsed once at cold start. Each endpoint reads only its own section, so a
 * function is never refused for a variable another one needs. A missing or invalid variable raises a
 * ConfigError that names it.
 */
import { z } from 'zod';

export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();
export const optionalUrl = optionalText.pipe(z.url().optional());
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Adds an issue naming `variable` when a setting that needs it is chosen and it is unset. */
function requireWhen(
  context: z.RefinementCtx,
  env: Readonly<Record<string, unknown>>,
  variable: string,
  condition: string,
): void {
  if (!env[variable])
    context.addIssue({ code: 'custom', path: [variable], message: `required when ${condition}` });
}

function parseSection<S extends z.ZodType>(section: string, schema: S, env: Env): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join('.')} (${issue.message})`,
  );
  throw new ConfigError(`Invalid ${section} configuration: ${problems.join('; ')}`);
}

/**
 * SDK client settings for an AWS endpoint override. Overrides exist for dynalite and loopback fakes,
 * which check no signature, so the client signs with fixed dummy credentials instead of searching the
 * machine for real ones (which a fresh clone does not have, and which must never reach a local fake).
 */
export interface EndpointOverride {
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}
export function endpointOverride(endpoint: string | undefined): EndpointOverride {
  if (!endpoint) return {};
  return { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
}

const feedbackSchema = z
  .object({
    FEEDBACK_TABLE: z.string().trim().min(1, 'required: the DynamoDB table that stores feedback'),
    /** Local runs and tests point the real client at dynalite. */
    DYNAMODB_ENDPOINT: optionalUrl,
    /** Per attempt; a hung DynamoDB call must answer 504 before the Lambda itself times out. */
    DYNAMODB_TIMEOUT_MS: positiveInt(3000),
    /** Days a feedback item is kept before DynamoDB's TTL deletes it (docs/configuration.md). */
    FEEDBACK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
    AWS_REGION: optionalText,
  })
  .transform((env) => ({
    tableName: env.FEEDBACK_TABLE,
    retentionDays: env.FEEDBACK_RETENTION_DAYS,
    endpoint: env.DYNAMODB_ENDPOINT,
    timeoutMs: env.DYNAMODB_TIMEOUT_MS,
    region: env.AWS_REGION ?? 'us-east-1',
  }));
export type FeedbackConfig = z.output<typeof feedbackSchema>;
export const readFeedbackConfig = (env: Env = process.env): FeedbackConfig =>
  parseSection('feedback', feedbackSchema, env);

const speechSchema = z
  .object({
    /** Secrets Manager id of the Azure Speech key (deployed). */
    SPEECH_SECRET_ID: optionalText,
    /** The key itself, for local runs only. */
    AZURE_SPEECH_KEY: optionalText,
    AZURE_SPEECH_REGION: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9]+$/, 'an Azure region name such as eastus')
        .default('eastus'),
    ),
    /** Overrides `https://{region}.api.cognitive.microsoft.com` (tests point it at a loopback fake). */
    AZURE_STS_BASE_URL: optionalUrl,
    SECRETS_MANAGER_ENDPOINT: optionalUrl,
    SPEECH_STS_TIMEOUT_MS: positiveInt(5000),
    SECRETS_MANAGER_TIMEOUT_MS: positiveInt(3000),
    AWS_REGION: optionalText,
  })
  .transform((env) => ({
    secretId: env.SPEECH_SECRET_ID,
    localKey: env.AZURE_SPEECH_KEY,
    region: env.AZURE_SPEECH_REGION,
    stsBaseUrl: env.AZURE_STS_BASE_URL,
    secretsManagerEndpoint: env.SECRETS_MANAGER_ENDPOINT,
    stsTimeoutMs: env.SPEECH_STS_TIMEOUT_MS,
    secretsManagerTimeoutMs: env.SECRETS_MANAGER_TIMEOUT_MS,
    awsRegion: env.AWS_REGION ?? 'us-east-1',
  }));
export type SpeechConfig = z.output<typeof speechSchema>;
export const readSpeechConfig = (env: Env = process.env): SpeechConfig =>
  parseSection('speech', speechSchema, env);

const providerSchema = z.enum(['bedrock', 'openai', 'offline']);
export type Provider = z.output<typeof providerSchema>;

const tutorSchema = z
  .object({
    ASTRO_MODEL: optionalText.pipe(providerSchema.default('offline')),
    /** Amazon Nova 2 Lite through the US cross-Region inference profile: fast, multilingual, tool use. */
    BEDROCK_MODEL_ID: optionalText.pipe(z.string().default('us.amazon.nova-2-lite-v1:0')),
    BEDROCK_ENDPOINT: optionalUrl,
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_API_KEY: optionalText,
    OPENAI_MODEL: optionalText,
    /** One deadline for the whole reply (including a follow-up call), under API Gateway's 29 s. */
    MODEL_TIMEOUT_MS: positiveInt(20_000),
    /** A streamed reply is given up on after this long with nothing new from the model. */
    MODEL_IDLE_TIMEOUT_MS: positiveInt(10_000),
    /** 2–4 spoken sentences need far fewer; the cap bounds cost and latency. */
    MODEL_MAX_TOKENS: z.coerce.number().int().min(16).max(4096).default(400),
    /** The Bedrock Guardrail the stack creates (id and version); unset, Converse runs without one. */
    BEDROCK_GUARDRAIL_ID: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9]+$|^arn:aws[a-z-]*:bedrock:/)
        .optional(),
    ),
    BEDROCK_GUARDRAIL_VERSION: optionalText.pipe(
      z
        .string()
        .regex(/^(DRAFT|\d{1,8})$/)
        .default('DRAFT'),
    ),
    AWS_REGION: optionalText,
  })
  .superRefine((env, context) => {
    if (env.ASTRO_MODEL === 'openai') {
      requireWhen(context, env, 'OPENAI_BASE_URL', 'ASTRO_MODEL=openai');
      requireWhen(context, env, 'OPENAI_MODEL', 'ASTRO_MODEL=openai');
    }
  })
  .transform((env) => ({
    provider: env.ASTRO_MODEL,
    bedrock: {
      modelId: env.BEDROCK_MODEL_ID,
      region: env.AWS_REGION ?? 'us-east-1',
      ...endpointOverride(env.BEDROCK_ENDPOINT),
    },
    openai: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.OPENAI_MODEL },
    timeoutMs: env.MODEL_TIMEOUT_MS,
    idleTimeoutMs: env.MODEL_IDLE_TIMEOUT_MS,
    maxTokens: env.MODEL_MAX_TOKENS,
    guardrail: env.BEDROCK_GUARDRAIL_ID
      ? { id: env.BEDROCK_GUARDRAIL_ID, version: env.BEDROCK_GUARDRAIL_VERSION }
      : undefined,
  }));
export type TutorConfig = z.output<typeof tutorSchema>;
export const readTutorConfig = (env: Env = process.env): TutorConfig =>
  parseSection('tutor', tutorSchema, env);

const pictureSchema = z
  .object({
    ASTRO_IMAGE_MODEL: optionalText.pipe(providerSchema.default('offline')),
    BEDROCK_IMAGE_MODEL_ID: optionalText.pipe(z.string().default('amazon.nova-canvas-v1:0')),
    BEDROCK_ENDPOINT: optionalUrl,
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_API_KEY: optionalText,
    OPENAI_IMAGE_MODEL: optionalText,
    IMAGE_STORE: optionalText.pipe(z.enum(['s3', 'local']).default('local')),
    IMAGE_BUCKET: optionalText,
    IMAGE_DIR: optionalText.pipe(z.string().default('.data/images')),
    S3_ENDPOINT: optionalUrl,
    /** Drawing and storing one picture, under API Gateway's 29 s. */
    IMAGE_TIMEOUT_MS: positiveInt(25_000),
    AWS_REGION: optionalText,
  })
  .superRefine((env, context) => {
    if (env.IMAGE_STORE === 's3') requireWhen(context, env, 'IMAGE_BUCKET', 'IMAGE_STORE=s3');
    if (env.ASTRO_IMAGE_MODEL === 'openai') {
      requireWhen(context, env, 'OPENAI_BASE_URL', 'ASTRO_IMAGE_MODEL=openai');
    }
  })
  .transform((env) => ({
    provider: env.ASTRO_IMAGE_MODEL,
    bedrock: {
      modelId: env.BEDROCK_IMAGE_MODEL_ID,
      region: env.AWS_REGION ?? 'us-east-1',
      ...endpointOverride(env.BEDROCK_ENDPOINT),
    },
    openai: { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, model: env.OPENAI_IMAGE_MODEL },
    store: env.IMAGE_STORE,
    bucket: env.IMAGE_BUCKET,
    directory: env.IMAGE_DIR,
    region: env.AWS_REGION ?? 'us-east-1',
    s3: endpointOverride(env.S3_ENDPOINT),
    timeoutMs: env.IMAGE_TIMEOUT_MS,
  }));
export type PictureConfig = z.output<typeof pictureSchema>;
export const readPictureConfig = (env: Env = process.env): PictureConfig =>
  parseSection('picture', pictureSchema, env);

/** A number setting; a blank value counts as unset. */
const numberSetting = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema);
/** A price or an amount of money, in USD: a plain decimal such as `0.3` or `25`. */
const usd = (max: number) => numberSetting(z.coerce.number().min(0).max(max).optional());

const spendSchema = z
  .object({
    /** The spend ledger's DynamoDB table (deployed: the stack's; locally: one in the embedded database). */
    SPEND_TABLE: optionalText,
    DYNAMODB_ENDPOINT: optionalUrl,
    /** The day's cap, in USD; unset, nothing is capped (spending is still recorded when there is a table). */
    ASTRO_DAILY_BUDGET_USD: numberSetting(z.coerce.number().positive().max(1_000_000).optional()),
    /** The share of the day's budget one address may spend (an IPv6 address counted by its /64). */
    ASTRO_CLIENT_SHARE: numberSetting(z.coerce.number().positive().max(1).default(0.05)),
    /** Paid replies in one conversation; later ones come from the offline tutor. */
    ASTRO_CONVERSATION_MAX_TURNS: numberSetting(z.coerce.number().int().min(1).max(10_000).default(100)),
    ASTRO_PRICE_INPUT_USD_PER_MTOK: usd(1000),
    ASTRO_PRICE_OUTPUT_USD_PER_MTOK: usd(1000),
    ASTRO_PRICE_PICTURE_USD: usd(100),
    ASTRO_PRICE_SPEECH_TOKEN_USD: usd(100),
    /** Reading the day's spend before a paid call; past it the call is not made (docs/design-notes.md). */
    SPEND_READ_TIMEOUT_MS: positiveInt(1000),
    /** Recording a paid call, after (or alongside) the answer. */
    SPEND_WRITE_TIMEOUT_MS: positiveInt(2000),
    /** The header naming the caller's address (deployed: CloudFront's viewer address). */
    CLIENT_ADDRESS_HEADER: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9-]+$/, 'a header name in lower case')
        .optional(),
    ),
    AWS_REGION: optionalText,
  })
  .superRefine((env, context) => {
    if (env.ASTRO_DAILY_BUDGET_USD !== undefined) {
      requireWhen(context, env, 'SPEND_TABLE', 'ASTRO_DAILY_BUDGET_USD is set');
    }
  })
  .transform((env) => ({
    tableName: env.SPEND_TABLE,
    endpoint: env.DYNAMODB_ENDPOINT,
    region: env.AWS_REGION ?? 'us-east-1',
    dailyBudgetUsd: env.ASTRO_DAILY_BUDGET_USD,
    clientShare: env.ASTRO_CLIENT_SHARE,
    conversationMaxTurns: env.ASTRO_CONVERSATION_MAX_TURNS,
    prices: {
      inputUsdPerMTok: env.ASTRO_PRICE_INPUT_USD_PER_MTOK,
      outputUsdPerMTok: env.ASTRO_PRICE_OUTPUT_USD_PER_MTOK,
      pictureUsd: env.ASTRO_PRICE_PICTURE_USD,
      speechTokenUsd: env.ASTRO_PRICE_SPEECH_TOKEN_USD,
    },
    readTimeoutMs: env.SPEND_READ_TIMEOUT_MS,
    writeTimeoutMs: env.SPEND_WRITE_TIMEOUT_MS,
    clientAddressHeader: env.CLIENT_ADDRESS_HEADER,
  }));
export type SpendConfig = z.output<typeof spendSchema>;
export const readSpendConfig = (env: Env = process.env): SpendConfig =>
  parseSection('spend', spendSchema, env);
