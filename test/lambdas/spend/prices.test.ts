import { describe, expect, it } from 'vitest';
import { ConfigError, readPictureConfig, readSpendConfig, readTutorConfig, type Env } from '#lambdas/config';
import {
  bedrockTokenPrices,
  DEFAULT_SPEECH_TOKEN_USD,
  picturePrice,
  speechTokenPrice,
  tokenCost,
  tutorPrices,
} from '#lambdas/spend/prices';

// The ledger's prices (docs/behaviour.md §12.18, docs/configuration.md): the listed Bedrock ones, the
// ASTRO_PRICE_* variables over them, nothing for an OpenAI-compatible server unless set.
const prices = (env: Env) => tutorPrices(readSpendConfig(env), readTutorConfig(env));

describe('the prices the ledger charges', () => {
  it('charges the default Bedrock model (through its US profile) its listed price', () => {
    expect(prices({ ASTRO_MODEL: 'bedrock' })).toEqual({ inputUsdPerMTok: 0.3, outputUsdPerMTok: 2.5 });
    expect(bedrockTokenPrices('eu.amazon.nova-lite-v1:0')).toEqual({
      inputUsdPerMTok: 0.06,
      outputUsdPerMTok: 0.24,
    });
  });

  it('lets ASTRO_PRICE_* win over the list', () => {
    expect(
      prices({
        ASTRO_MODEL: 'bedrock',
        ASTRO_PRICE_INPUT_USD_PER_MTOK: '1.5',
        ASTRO_PRICE_OUTPUT_USD_PER_MTOK: '6',
      }),
    ).toEqual({ inputUsdPerMTok: 1.5, outputUsdPerMTok: 6 });
  });

  it('charges an OpenAI-compatible server nothing unless its prices are set', () => {
    const openai = { ASTRO_MODEL: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'm' };
    expect(prices(openai)).toEqual({ inputUsdPerMTok: 0, outputUsdPerMTok: 0 });
    expect(
      prices({ ...openai, ASTRO_PRICE_INPUT_USD_PER_MTOK: '0.15', ASTRO_PRICE_OUTPUT_USD_PER_MTOK: '0.6' }),
    ).toEqual({ inputUsdPerMTok: 0.15, outputUsdPerMTok: 0.6 });
  });

  it('refuses a budget over a Bedrock model it has no price for, naming the variables to set', () => {
    const env = { ASTRO_MODEL: 'bedrock', BEDROCK_MODEL_ID: 'anthropic.claude-x', SPEND_TABLE: 't' };
    expect(() => prices({ ...env, ASTRO_DAILY_BUDGET_USD: '25' })).toThrow(ConfigError);
    expect(() => prices({ ...env, ASTRO_DAILY_BUDGET_USD: '25' })).toThrow(/ASTRO_PRICE_INPUT_USD_PER_MTOK/);
    expect(prices(env)).toEqual({ inputUsdPerMTok: 0, outputUsdPerMTok: 0 });
  });

  it('prices a picture: Nova Canvas as listed, a sketch nothing, an unknown model only when set', () => {
    const spend = (env: Env) => picturePrice(readSpendConfig(env), readPictureConfig(env));
    expect(spend({ ASTRO_IMAGE_MODEL: 'bedrock' })).toBe(0.04);
    expect(spend({})).toBe(0);
    expect(spend({ ASTRO_IMAGE_MODEL: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' })).toBe(0);
    expect(
      spend({
        ASTRO_IMAGE_MODEL: 'openai',
        OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
        ASTRO_PRICE_PICTURE_USD: '0.02',
      }),
    ).toBe(0.02);
    expect(() =>
      spend({
        ASTRO_IMAGE_MODEL: 'bedrock',
        BEDROCK_IMAGE_MODEL_ID: 'stability.x',
        ASTRO_DAILY_BUDGET_USD: '5',
        SPEND_TABLE: 't',
      }),
    ).toThrow(/ASTRO_PRICE_PICTURE_USD/);
  });

  it('prices a speech token at its estimate unless set', () => {
    expect(speechTokenPrice(readSpendConfig({}))).toBe(DEFAULT_SPEECH_TOKEN_USD);
    expect(speechTokenPrice(readSpendConfig({ ASTRO_PRICE_SPEECH_TOKEN_USD: '0' }))).toBe(0);
  });

  it('costs a call its tokens, and with a guardrail its text units too', () => {
    const nova = { inputUsdPerMTok: 0.3, outputUsdPerMTok: 2.5 };
    expect(tokenCost({ inputTokens: 2_000_000, outputTokens: 1_000_000 }, nova, false)).toBeCloseTo(3.1, 10);
    // 2,000 tokens read ≈ 8,000 characters = 8 units, 150 written ≈ 600 = 1 unit; $0.30 per 1,000 units.
    expect(tokenCost({ inputTokens: 2000, outputTokens: 150 }, nova, true)).toBeCloseTo(
      0.0006 + 0.000375 + 9 * 0.0003,
      10,
    );
  });
});

describe('the spend settings', () => {
  it('has no cap by default, a 5% share and 100 paid replies a conversation', () => {
    expect(readSpendConfig({})).toMatchObject({
      dailyBudgetUsd: undefined,
      clientShare: 0.05,
      conversationMaxTurns: 100,
      readTimeoutMs: 1000,
      writeTimeoutMs: 2000,
    });
  });

  it('takes a cap as small as a test needs, and a blank one as none', () => {
    expect(readSpendConfig({ ASTRO_DAILY_BUDGET_USD: '0.000001', SPEND_TABLE: 't' }).dailyBudgetUsd).toBe(
      0.000001,
    );
    expect(readSpendConfig({ ASTRO_DAILY_BUDGET_USD: ' ' }).dailyBudgetUsd).toBeUndefined();
  });

  it.each([
    [{ ASTRO_DAILY_BUDGET_USD: '25' }, 'SPEND_TABLE'],
    [{ ASTRO_DAILY_BUDGET_USD: '-1', SPEND_TABLE: 't' }, 'ASTRO_DAILY_BUDGET_USD'],
    [{ ASTRO_DAILY_BUDGET_USD: 'lots', SPEND_TABLE: 't' }, 'ASTRO_DAILY_BUDGET_USD'],
    [{ ASTRO_CLIENT_SHARE: '0' }, 'ASTRO_CLIENT_SHARE'],
    [{ ASTRO_CLIENT_SHARE: '1.5' }, 'ASTRO_CLIENT_SHARE'],
    [{ ASTRO_CONVERSATION_MAX_TURNS: '2.5' }, 'ASTRO_CONVERSATION_MAX_TURNS'],
    [{ ASTRO_PRICE_INPUT_USD_PER_MTOK: '-0.3' }, 'ASTRO_PRICE_INPUT_USD_PER_MTOK'],
    [{ ASTRO_PRICE_OUTPUT_USD_PER_MTOK: 'two' }, 'ASTRO_PRICE_OUTPUT_USD_PER_MTOK'],
    [{ ASTRO_PRICE_PICTURE_USD: '-1' }, 'ASTRO_PRICE_PICTURE_USD'],
    [{ ASTRO_PRICE_SPEECH_TOKEN_USD: 'free' }, 'ASTRO_PRICE_SPEECH_TOKEN_USD'],
    [{ CLIENT_ADDRESS_HEADER: 'X Bad' }, 'CLIENT_ADDRESS_HEADER'],
  ])('refuses %o, naming %s', (env, variable) => {
    expect(() => readSpendConfig(env)).toThrow(ConfigError);
    expect(() => readSpendConfig(env)).toThrow(variable);
  });
});
