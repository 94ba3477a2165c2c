import { beforeAll, describe, expect, it } from 'vitest';
import { AwsSolutionsChecks } from 'cdk-nag';
import { synthAstro, type Synthesized } from './synth';

type Props = Record<string, unknown>;
type Resource = { Type: string; Properties: Props };

// The options an operator can change, all at once, in one synth (esbuild skipped: the function code is
// covered by astro-stack.test.ts; these assertions are about the resources around it).
let astro: Synthesized;
let resources: Record<string, Resource>;

beforeAll(() => {
  astro = synthAstro(
    {
      region: 'eu-west-1',
      waf: 'false',
      stage: 'live',
      chatModelId: 'eu.amazon.nova-lite-v1:0',
      imageModelId: 'amazon.titan-image-generator-v2:0',
      // An image model without a listed price is priced here (docs/deploy.md, "CDK context options").
      prices: '{"pictureUsd":0.01,"speechTokenUsd":0.2}',
      dailyBudgetUsd: 40,
      speechRegion: 'westeurope',
      speechSecretMode: 'import',
      speechSecretName: 'shared/azure-speech',
      reservedConcurrency: 'false',
      throttle: '{"rateLimit":50,"chat":{"rateLimit":8,"burstLimit":16}}',
      imageExpirationDays: 7,
      priceClass: 100,
      logRetentionDays: 90,
      domainName: 'astro.example.org',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
      alarmEmail: 'ops@example.org',
      apiGatewayAccountRole: 'false',
    },
    { bundle: false },
  );
  resources = astro.template.toJSON().Resources as Record<string, Resource>;
});

const ofType = (type: string) => Object.values(resources).filter((resource) => resource.Type === type);
const distribution = () =>
  (ofType('AWS::CloudFront::Distribution')[0]?.Properties.DistributionConfig ?? {}) as Props;

describe('a stack with every option changed', () => {
  it('has no web ACL when WAF is off, and is still clean under cdk-nag', () => {
    expect(ofType('AWS::WAFv2::WebACL')).toEqual([]);
    expect(distribution().WebACLId).toBeUndefined();
    expect(new AwsSolutionsChecks().validateScope(astro.app).violations).toEqual([]);
  });

  it('serves the custom domain with its certificate and TLS 1.2 at least', () => {
    expect(distribution().Aliases).toEqual(['astro.example.org']);
    expect(distribution().ViewerCertificate).toEqual({
      AcmCertificateArn:
        'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(astro.template.toJSON().Outputs.SiteUrl.Value).toBe('https://astro.example.org');
    expect(distribution().PriceClass).toBe('PriceClass_100');
  });

  it('counts the custom domain as the site’s own origin on every function (the origin rule)', () => {
    const functions = ofType('AWS::Lambda::Function').filter((fn) => fn.Properties.Runtime === 'nodejs24.x');
    for (const fn of functions) {
      expect((fn.Properties.Environment as { Variables: Props }).Variables).toMatchObject({
        SITE_ORIGINS: 'https://astro.example.org',
        SITE_HOST_HEADER: 'x-astro-site-host',
      });
    }
  });

  it('allows the configured speech region’s hosts in the Content-Security-Policy', () => {
    const policies = JSON.stringify(ofType('AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policies).toContain(
      "connect-src 'self' wss://westeurope.stt.speech.microsoft.com wss://westeurope.tts.speech.microsoft.com https://westeurope.tts.speech.microsoft.com",
    );
    expect(policies).not.toContain('eastus');
  });

  it('imports the speech secret by name and grants reading only that name', () => {
    expect(
      ofType('AWS::SecretsManager::Secret').filter((secret) => secret.Properties.Name !== undefined),
    ).toEqual([]);
    const speech = ofType('AWS::IAM::Policy').find((policy) =>
      JSON.stringify(policy.Properties).includes('shared/azure-speech'),
    );
    expect((speech?.Properties.PolicyDocument as { Statement: Props[] }).Statement).toEqual([
      // Its spend (speech tokens minted) goes to the ledger.
      expect.objectContaining({ Action: ['dynamodb:BatchGetItem', 'dynamodb:UpdateItem'] }),
      {
        Action: 'secretsmanager:GetSecretValue',
        Effect: 'Allow',
        Resource: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':secretsmanager:eu-west-1:',
              { Ref: 'AWS::AccountId' },
              ':secret:shared/azure-speech-??????',
            ],
          ],
        },
      },
    ]);
    const speechFunction = ofType('AWS::Lambda::Function').find((fn) =>
      JSON.stringify(fn.Properties.Environment).includes('SPEECH_SECRET_ID'),
    );
    expect((speechFunction?.Properties.Environment as { Variables: Props }).Variables).toMatchObject({
      SPEECH_SECRET_ID: 'shared/azure-speech',
      AZURE_SPEECH_REGION: 'westeurope',
    });
  });

  it('grants a plain image model id in the stack’s region only', () => {
    expect(JSON.stringify(ofType('AWS::IAM::Policy'))).toContain(
      ':bedrock:eu-west-1::foundation-model/amazon.titan-image-generator-v2:0',
    );
  });

  it('reserves no concurrency when reservedConcurrency is false', () => {
    const functions = ofType('AWS::Lambda::Function').filter((fn) => fn.Properties.Runtime === 'nodejs24.x');
    expect(functions).toHaveLength(4);
    for (const fn of functions) expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('applies the throttling, stage, expiry and retention given in context', () => {
    const stage = ofType('AWS::ApiGateway::Stage')[0]?.Properties as Props;
    expect(stage.StageName).toBe('live');
    expect(stage.MethodSettings).toContainEqual(
      expect.objectContaining({ ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 40 }),
    );
    expect(stage.MethodSettings).toContainEqual(
      expect.objectContaining({
        ResourcePath: '/~1api~1chat',
        ThrottlingRateLimit: 8,
        ThrottlingBurstLimit: 16,
      }),
    );
    expect(JSON.stringify(ofType('AWS::S3::Bucket'))).toContain('"ExpirationInDays":7');
    for (const group of ofType('AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays).toBe(90);
  });

  it('leaves the account log role alone when asked to', () => {
    expect(ofType('AWS::ApiGateway::Account')).toEqual([]);
  });

  it('e-mails alarms through an SNS topic encrypted with a rotating key CloudWatch may use', () => {
    const [topic] = ofType('AWS::SNS::Topic');
    expect(topic?.Properties.KmsMasterKeyId).toBeDefined();
    expect(ofType('AWS::SNS::Subscription')[0]?.Properties).toMatchObject({
      Protocol: 'email',
      Endpoint: 'ops@example.org',
    });
    const [key] = ofType('AWS::KMS::Key');
    expect(key?.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key?.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const alarms = ofType('AWS::CloudWatch::Alarm');
    // The API's 5xx rate, each function's errors and throttles, feedback write throttles and growth, a
    // spending limit reached and the spend ledger failing.
    expect(alarms.length).toBe(13);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toHaveLength(1);
  });
});
