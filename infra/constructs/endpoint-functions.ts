import type { ITable, ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ENDPOINTS, perEndpoint, type EndpointName } from '../../lambdas/endpoints';
import type { AstroConfig } from '../context';
import { AstroFunction } from './astro-function';
import type { Guardrail } from './guardrail';
import { SITE_HOST_HEADER, VIEWER_ADDRESS_HEADER } from './site-host';

/** What the functions are given access to, one `bind…` each (infra/constructs/astro-function.ts). */
export interface EndpointResources {
  readonly config: AstroConfig;
  readonly trustSecret: ISecret;
  readonly speechSecret: { readonly secret: ISecret; readonly secretId: string };
  readonly feedbackTable: ITable | ITableV2;
  /** The spend ledger (docs/behaviour.md §12.18): chat, generateImage and speechToken charge it. */
  readonly spendTable: ITable | ITableV2;
  readonly pictureBucket: IBucket;
  readonly guardrail?: Guardrail;
}

/**
 * What each function needs beyond its registry row: the variables that pick its deployed services and the
 * grants to reach them. An endpoint that needs nothing more has no entry.
 */
/** The spend guard's settings, for each function it runs in (docs/behaviour.md §12.19). */
function bindSpendGuard(
  fn: AstroFunction,
  { config, spendTable }: EndpointResources,
  prices: Readonly<Record<string, number | undefined>>,
  options: { tickets?: boolean } = {},
): void {
  fn.bindSpendLedger(spendTable, options);
  fn.addEnvironment('ASTRO_DAILY_BUDGET_USD', String(config.dailyBudgetUsd));
  fn.addEnvironment('ASTRO_CLIENT_SHARE', String(config.clientShare));
  // CloudFront's viewer address (infra/constructs/site-host.ts): API Gateway sees CloudFront's own.
  fn.addEnvironment('CLIENT_ADDRESS_HEADER', VIEWER_ADDRESS_HEADER);
  for (const [variable, price] of Object.entries(prices)) {
    if (price !== undefined) fn.addEnvironment(variable, String(price));
  }
}

const WIRING: Partial<Record<EndpointName, (fn: AstroFunction, resources: EndpointResources) => void>> = {
  chat(fn, resources) {
    const { config, trustSecret, guardrail } = resources;
    bindSpendGuard(fn, resources, {
      ASTRO_PRICE_INPUT_USD_PER_MTOK: config.prices.inputUsdPerMTok,
      ASTRO_PRICE_OUTPUT_USD_PER_MTOK: config.prices.outputUsdPerMTok,
    });
    fn.addEnvironment('ASTRO_CONVERSATION_MAX_TURNS', String(config.conversationMaxTurns));
    // The model's deadline ends before the function's 28 s (docs/behaviour.md §9.7).
    fn.addEnvironment('ASTRO_MODEL', 'bedrock');
    fn.addEnvironment('MODEL_TIMEOUT_MS', '20000');
    // The reply streams (ConverseStream) when the web app asks for it (docs/behaviour.md §11.7).
    fn.bindBedrockModel('BEDROCK_MODEL_ID', config.chatModelId, { streaming: true });
    fn.bindTrustSecret(trustSecret);
    if (guardrail) {
      fn.bindGuardrail({
        arn: guardrail.guardrail.attrGuardrailArn,
        id: guardrail.guardrail.attrGuardrailId,
        version: guardrail.version.attrVersion,
      });
    }
  },
  generateImage(fn, resources) {
    const { config, trustSecret, pictureBucket } = resources;
    bindSpendGuard(fn, resources, { ASTRO_PRICE_PICTURE_USD: config.prices.pictureUsd }, { tickets: true });
    fn.addEnvironment('ASTRO_IMAGE_MODEL', 'bedrock');
    fn.addEnvironment('IMAGE_TIMEOUT_MS', '25000');
    fn.bindBedrockModel('BEDROCK_IMAGE_MODEL_ID', config.imageModelId);
    fn.bindPictureBucket(pictureBucket);
    fn.bindTrustSecret(trustSecret);
  },
  feedback(fn, { config, feedbackTable }) {
    fn.bindFeedbackTable(feedbackTable);
    fn.addEnvironment('FEEDBACK_RETENTION_DAYS', String(config.feedbackRetentionDays));
  },
  speechToken(fn, resources) {
    const { config, speechSecret } = resources;
    bindSpendGuard(fn, resources, { ASTRO_PRICE_SPEECH_TOKEN_USD: config.prices.speechTokenUsd });
    fn.addEnvironment('AZURE_SPEECH_REGION', config.speechRegion);
    fn.bindSpeechSecret(speechSecret.secret, speechSecret.secretId);
  },
};

/**
 * One Lambda per row of the endpoint registry (lambdas/endpoints.ts), sized by its row, capped by the
 * context's reserved concurrency, and wired to what it needs. Created in `scope` (the stack) as
 * `<Name>Function`, so their logical ids do not depend on this helper.
 */
export function createEndpointFunctions(
  scope: Construct,
  resources: EndpointResources,
  logRetention: RetentionDays,
): Readonly<Record<EndpointName, AstroFunction>> {
  const { config } = resources;
  return perEndpoint((_endpoint, name) => {
    const id = `${name.charAt(0).toUpperCase()}${name.slice(1)}Function`;
    const fn = new AstroFunction(scope, id, {
      sizing: ENDPOINTS[name].function,
      logRetention,
      reservedConcurrency:
        config.reservedConcurrency === false ? undefined : config.reservedConcurrency[name],
    });
    WIRING[name]?.(fn, resources);
    // The origin rule (lambdas/http/origin.ts): CloudFront names the viewer's host; a custom domain is ours.
    fn.addEnvironment('SITE_HOST_HEADER', SITE_HOST_HEADER);
    if (config.domainName) fn.addEnvironment('SITE_ORIGINS', `https://${config.domainName}`);
    return fn;
  });
}
