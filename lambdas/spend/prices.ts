/**
 * What each paid call costs, for the spend ledger (docs/behaviour.md §12.18). Bedrock's on-demand prices for
 * the models Astro offers by default, in USD: the Amazon Bedrock pricing page (aws.amazon.com/bedrock/pricing,
 * us-east-1, standard tier), as read on 2026-11-26 through OpenRouter's listing of the same Amazon models (the
 * figures docs/deploy.md has used since Nova 2 Lite became the default). A price that changes, or a model
 * not listed here, is set with the ASTRO_PRICE_* variables (docs/configuration.md), which always win.
 */
import { ConfigError, type PictureConfig, type SpendConfig, type TutorConfig } from '../config';
import type { TokenUsage } from '../upstream/token-usage';

/** The price of a model's tokens, per million. */
export interface TokenPrices {
  readonly inputUsdPerMTok: number;
  readonly outputUsdPerMTok: number;
}

/** Bedrock text models by id, without a cross-region profile's `us.`/`eu.`/`apac.`/`global.` prefix. */
const BEDROCK_TOKEN_PRICES: Readonly<Record<string, TokenPrices>> = {
  'amazon.nova-2-lite-v1:0': { inputUsdPerMTok: 0.3, outputUsdPerMTok: 2.5 },
  'amazon.nova-lite-v1:0': { inputUsdPerMTok: 0.06, outputUsdPerMTok: 0.24 },
  'amazon.nova-micro-v1:0': { inputUsdPerMTok: 0.035, outputUsdPerMTok: 0.14 },
  'amazon.nova-pro-v1:0': { inputUsdPerMTok: 0.8, outputUsdPerMTok: 3.2 },
};

/** Bedrock picture models by id: one standard-quality picture up to 1024×1024 (Astro draws 512×512). */
const BEDROCK_PICTURE_PRICES: Readonly<Record<string, number>> = {
  'amazon.nova-canvas-v1:0': 0.04,
};

/**
 * A Bedrock Guardrail's text units (up to 1,000 characters each): content filters and denied topics,
 * $0.15 per 1,000 units each (the word filter is free). Counted on every guarded model call.
 */
export const GUARDRAIL_USD_PER_TEXT_UNIT = (0.15 + 0.15) / 1000;
/** Characters per token the guardrail's units are estimated with: English runs at about 4. */
const GUARDRAIL_CHARS_PER_TOKEN = 4;

/**
 * A speech token lets a browser use Azure speech for its 10 minutes: recognition at $1 an audio hour
 * (standard tier) is $0.17 of them, the first thing to bill. Azure bills outside AWS; this is an estimate.
 */
export const DEFAULT_SPEECH_TOKEN_USD = 0.17;

const withoutProfile = (modelId: string) => modelId.replace(/^(us|eu|apac|global)\./, '');

/** The listed token prices of a Bedrock model or inference profile, if it is listed. */
export function bedrockTokenPrices(modelId: string): TokenPrices | undefined {
  return BEDROCK_TOKEN_PRICES[withoutProfile(modelId)];
}

/** The listed price of one picture from a Bedrock model, if it is listed. */
export function bedrockPicturePrice(modelId: string): number | undefined {
  return BEDROCK_PICTURE_PRICES[withoutProfile(modelId)];
}

/** The cost of one model call: its tokens, and the guardrail's text units when one checked it. */
export function tokenCost(usage: TokenUsage, prices: TokenPrices, guarded: boolean): number {
  const model =
    (usage.inputTokens * prices.inputUsdPerMTok + usage.outputTokens * prices.outputUsdPerMTok) / 1e6;
  if (!guarded) return model;
  const units = (tokens: number) => Math.ceil((tokens * GUARDRAIL_CHARS_PER_TOKEN) / 1000);
  return model + (units(usage.inputTokens) + units(usage.outputTokens)) * GUARDRAIL_USD_PER_TEXT_UNIT;
}

/**
 * The token prices the ledger charges a tutor's replies at: ASTRO_PRICE_INPUT/OUTPUT_USD_PER_MTOK when set,
 * else the listed price of the Bedrock model, else nothing (an OpenAI-compatible server is often local and
 * free; set the prices for a paid one). A Bedrock model without a listed price needs them when a budget is
 * set: a cap that counts nothing would cap nothing.
 */
export function tutorPrices(spend: SpendConfig, tutor: TutorConfig): TokenPrices {
  const listed = tutor.provider === 'bedrock' ? bedrockTokenPrices(tutor.bedrock.modelId) : undefined;
  const input = spend.prices.inputUsdPerMTok ?? listed?.inputUsdPerMTok;
  const output = spend.prices.outputUsdPerMTok ?? listed?.outputUsdPerMTok;
  if (tutor.provider === 'bedrock' && (input === undefined || output === undefined)) {
    if (spend.dailyBudgetUsd !== undefined) {
      throw new ConfigError(
        `Invalid spend configuration: ASTRO_PRICE_INPUT_USD_PER_MTOK and ASTRO_PRICE_OUTPUT_USD_PER_MTOK (required when ASTRO_DAILY_BUDGET_USD is set and ${tutor.bedrock.modelId} has no listed price)`,
      );
    }
  }
  return { inputUsdPerMTok: input ?? 0, outputUsdPerMTok: output ?? 0 };
}

/** The price of one picture drawn, on the same rules as {@link tutorPrices}. */
export function picturePrice(spend: SpendConfig, picture: PictureConfig): number {
  if (spend.prices.pictureUsd !== undefined) return spend.prices.pictureUsd;
  if (picture.provider !== 'bedrock') return 0;
  const listed = bedrockPicturePrice(picture.bedrock.modelId);
  if (listed === undefined && spend.dailyBudgetUsd !== undefined) {
    throw new ConfigError(
      `Invalid spend configuration: ASTRO_PRICE_PICTURE_USD (required when ASTRO_DAILY_BUDGET_USD is set and ${picture.bedrock.modelId} has no listed price)`,
    );
  }
  return listed ?? 0;
}

/** The price of one speech token minted: ASTRO_PRICE_SPEECH_TOKEN_USD, else the estimate. */
export function speechTokenPrice(spend: SpendConfig): number {
  return spend.prices.speechTokenUsd ?? DEFAULT_SPEECH_TOKEN_USD;
}
