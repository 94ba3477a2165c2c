/**
 * The stack's side of the spend guard (docs/behaviour.md §12.18–§12.20, docs/deploy.md "What it costs"): the
 * ledger's table, the cap and the prices each function is given, the viewer's address they count shares
 * by, the metric and alarm when a limit is reached, and the origin key whose rotation changes CloudFront and
 * API Gateway together. cdk-nag stays clean.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SPEND_METRICS } from '#infra/constructs/alarms';
import { VIEWER_ADDRESS_HEADER } from '#infra/constructs/site-host';
import { LEDGER_FAILURE_LOG_MESSAGE, SPEND_LIMIT_LOG_MESSAGE } from '#lambdas/spend/spend-guard';
import { synthAstro, type Synthesized } from './synth';

type Props = Record<string, unknown>;
type Resource = { Type: string; Properties: Props; DeletionPolicy?: string };

let astro: Synthesized;
let resources: Record<string, Resource>;

beforeAll(() => {
  astro = synthAstro({}, { bundle: false });
  resources = astro.template.toJSON().Resources as Record<string, Resource>;
});

const resourcesOf = (synth: Synthesized) => synth.template.toJSON().Resources as Record<string, Resource>;
const ofType = (type: string, synth = astro) =>
  Object.entries(resourcesOf(synth)).filter(([, resource]) => resource.Type === type);
const idOf = (synth: Synthesized, construct: { node: { defaultChild?: unknown } }) =>
  synth.stack.resolve(synth.stack.getLogicalId(construct.node.defaultChild as never)) as string;
const envOf = (name: keyof Synthesized['stack']['functions'], synth = astro) =>
  (
    resourcesOf(synth)[idOf(synth, synth.stack.functions[name])]?.Properties.Environment as {
      Variables: Props;
    }
  ).Variables;

describe('the spend ledger’s table', () => {
  it('is keyed by pk, billed on demand, encrypted, recoverable, and expires its items by TTL', () => {
    const table = resources[idOf(astro, astro.stack.spendLedger.table)] as Resource;
    expect(table.Properties).toMatchObject({
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: { SSEEnabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
    // Counters only, no learner data: a teardown may delete it (the feedback table is kept).
    expect(table.DeletionPolicy).toBe('Delete');
  });

  it('is named to the three functions that spend, with the cap, the share and the viewer-address header', () => {
    const ref = { Ref: idOf(astro, astro.stack.spendLedger.table) };
    for (const name of ['chat', 'generateImage', 'speechToken'] as const) {
      expect(envOf(name)).toMatchObject({
        SPEND_TABLE: ref,
        ASTRO_DAILY_BUDGET_USD: '25',
        ASTRO_CLIENT_SHARE: '0.05',
        CLIENT_ADDRESS_HEADER: VIEWER_ADDRESS_HEADER,
      });
    }
    expect(envOf('chat').ASTRO_CONVERSATION_MAX_TURNS).toBe('100');
    expect(envOf('feedback').SPEND_TABLE).toBeUndefined();
    // The default models have listed prices: nothing to pass.
    expect(Object.keys(envOf('chat')).filter((name) => name.startsWith('ASTRO_PRICE_'))).toEqual([]);
  });

  it('passes the cap, the share, the conversation’s replies and the prices from context', () => {
    const custom = synthAstro(
      {
        dailyBudgetUsd: '7.5',
        clientShare: '0.5',
        conversationMaxTurns: '40',
        prices: '{"inputUsdPerMTok":0.4,"outputUsdPerMTok":3,"pictureUsd":0.05,"speechTokenUsd":0.1}',
      },
      { bundle: false },
    );
    expect(envOf('chat', custom)).toMatchObject({
      ASTRO_DAILY_BUDGET_USD: '7.5',
      ASTRO_CLIENT_SHARE: '0.5',
      ASTRO_CONVERSATION_MAX_TURNS: '40',
      ASTRO_PRICE_INPUT_USD_PER_MTOK: '0.4',
      ASTRO_PRICE_OUTPUT_USD_PER_MTOK: '3',
    });
    expect(envOf('generateImage', custom).ASTRO_PRICE_PICTURE_USD).toBe('0.05');
    expect(envOf('speechToken', custom).ASTRO_PRICE_SPEECH_TOKEN_USD).toBe('0.1');
  });
});

describe('the spend alarms', () => {
  const filters = () => ofType('AWS::Logs::MetricFilter').map(([, filter]) => filter.Properties);
  const logGroupOf = (name: keyof Synthesized['stack']['functions']) => ({
    Ref: idOf(astro, astro.stack.functions[name].logGroup as never),
  });

  it.each([
    [SPEND_METRICS.limitReached, SPEND_LIMIT_LOG_MESSAGE],
    [SPEND_METRICS.ledgerFailures, LEDGER_FAILURE_LOG_MESSAGE],
  ])('count %s from the spend guard’s log line in chat, generateImage and speechToken', (metric, message) => {
    const counting = filters().filter(
      (filter) => (filter.MetricTransformations as Props[])[0]?.MetricName === metric,
    );
    expect(counting.map((filter) => filter.LogGroupName)).toEqual([
      logGroupOf('chat'),
      logGroupOf('generateImage'),
      logGroupOf('speechToken'),
    ]);
    for (const filter of counting) {
      expect(filter.FilterPattern).toBe(`{ $.message = "${message}" }`);
      expect(filter.MetricTransformations).toEqual([
        { MetricNamespace: 'Astro', MetricName: metric, MetricValue: '1' },
      ]);
    }
  });

  it.each([SPEND_METRICS.limitReached, SPEND_METRICS.ledgerFailures])(
    'alarm on %s at the first one in 5 minutes, notifying the alarm topic',
    (metric) => {
      const alarm = ofType('AWS::CloudWatch::Alarm')
        .map(([, item]) => item.Properties)
        .find((item) => item.MetricName === metric);
      expect(alarm).toMatchObject({
        Namespace: 'Astro',
        Statistic: 'Sum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: idOf(astro, astro.stack.alarms.topic) }],
      });
    },
  );

  it('notify the topic even without an e-mail: every alarm has the action', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, item]) => item.Properties);
    expect(alarms.length).toBeGreaterThanOrEqual(13);
    for (const alarm of alarms)
      expect(alarm.AlarmActions).toEqual([{ Ref: idOf(astro, astro.stack.alarms.topic) }]);
    expect(ofType('AWS::SNS::Subscription')).toEqual([]);
  });
});

describe('the origin key, rotated on both sides together', () => {
  const apiKeyValue = (synth: Synthesized) =>
    JSON.stringify((ofType('AWS::ApiGateway::ApiKey', synth)[0]?.[1].Properties ?? {}).Value);
  const originHeaderValue = (synth: Synthesized) => {
    const config = ofType('AWS::CloudFront::Distribution', synth)[0]?.[1].Properties.DistributionConfig as {
      Origins: { OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[];
    };
    const header = config.Origins.flatMap((origin) => origin.OriginCustomHeaders ?? []).find(
      (item) => item.HeaderName === 'x-api-key',
    );
    return JSON.stringify(header?.HeaderValue);
  };

  it('gives CloudFront and API Gateway the very same reference to the secret', () => {
    expect(apiKeyValue(astro)).toContain('{{resolve:secretsmanager:');
    expect(originHeaderValue(astro)).toBe(apiKeyValue(astro));
  });

  it('names a new secret version in both at once when originKeyVersion is set, so a deploy changes both', () => {
    const version = '8a1e0c52-5f3b-4c8e-9d2a-7b6c5d4e3f21';
    const rotated = synthAstro({ originKeyVersion: version }, { bundle: false });

    expect(apiKeyValue(rotated)).toContain(`:SecretString:::${version}}}`);
    expect(originHeaderValue(rotated)).toBe(apiKeyValue(rotated));
    expect(apiKeyValue(rotated)).not.toBe(apiKeyValue(astro));
  });
});

describe('cdk-nag', () => {
  it('finds nothing unacknowledged in the stack with the spend guard', () => {
    expect(new AwsSolutionsChecks().validateScope(astro.app).violations).toEqual([]);
  });
});
