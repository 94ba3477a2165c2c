import { describe, expect, it } from 'vitest';
import { ContextError, readAstroContext } from '#infra/context';

const read = (context: Record<string, unknown>) => readAstroContext((key) => context[key]);
const problemsOf = (context: Record<string, unknown>) => {
  try {
    read(context);
  } catch (error) {
    if (error instanceof ContextError) return error.message;
    throw error;
  }
  throw new Error('expected the context to be refused');
};

describe('CDK context', () => {
  it('defaults to us-east-1, eastus, the Nova models, WAF on and a cost cap', () => {
    expect(read({})).toMatchObject({
      stage: 'prod',
      region: 'us-east-1',
      chatModelId: 'us.amazon.nova-2-lite-v1:0',
      imageModelId: 'amazon.nova-canvas-v1:0',
      speechRegion: 'eastus',
      speechSecretMode: 'create',
      waf: true,
      reservedConcurrency: { chat: 15, generateImage: 5, feedback: 5, speechToken: 5 },
      throttle: { rateLimit: 20, burstLimit: 40, chat: { rateLimit: 3, burstLimit: 30 } },
      dailyBudgetUsd: 25,
      clientShare: 0.05,
      conversationMaxTurns: 100,
      prices: {},
      imageExpirationDays: 30,
      logRetentionDays: 30,
      apiGatewayAccountRole: true,
    });
  });

  it('reads command-line strings as the booleans, numbers and objects they spell', () => {
    const config = read({
      waf: 'false',
      region: 'eu-central-1',
      chatModelId: 'eu.amazon.nova-lite-v1:0',
      imageExpirationDays: '7',
      reservedConcurrency: '{"chat":3}',
      throttle: '{"generateImage":{"burstLimit":9}}',
    });
    expect(config.waf).toBe(false);
    expect(config.imageExpirationDays).toBe(7);
    expect(config.reservedConcurrency).toEqual({ chat: 3, generateImage: 5, feedback: 5, speechToken: 5 });
    expect(config.throttle.generateImage).toEqual({ rateLimit: 1, burstLimit: 9 });
    expect(read({ dailyBudgetUsd: '2.5', prices: '{"pictureUsd":0.02}' })).toMatchObject({
      dailyBudgetUsd: 2.5,
      prices: { pictureUsd: 0.02 },
    });
    expect(read({ reservedConcurrency: 'false' }).reservedConcurrency).toBe(false);
  });

  it('refuses a model without a listed price unless its price is set, naming what to set', () => {
    expect(problemsOf({ chatModelId: 'anthropic.claude-3-haiku-20240307-v1:0' })).toMatch(
      /prices: .*prices\.inputUsdPerMTok and prices\.outputUsdPerMTok/,
    );
    expect(problemsOf({ imageModelId: 'amazon.titan-image-generator-v2:0' })).toMatch(
      /prices: .*prices\.pictureUsd/,
    );
    expect(() =>
      read({
        chatModelId: 'anthropic.claude-3-haiku-20240307-v1:0',
        prices: { inputUsdPerMTok: 0.25, outputUsdPerMTok: 1.25 },
      }),
    ).not.toThrow();
  });

  it('refuses a budget that is not a positive amount, a share outside (0, 1] and a malformed key version', () => {
    expect(problemsOf({ dailyBudgetUsd: 0 })).toMatch(/dailyBudgetUsd/);
    expect(problemsOf({ clientShare: '1.5' })).toMatch(/clientShare/);
    expect(problemsOf({ originKeyVersion: 'not a version' })).toMatch(/originKeyVersion/);
  });

  it('refuses WAF outside us-east-1 and says how to fix it', () => {
    expect(problemsOf({ region: 'eu-west-1', chatModelId: 'eu.amazon.nova-lite-v1:0' })).toMatch(
      /waf: .*us-east-1.*-c waf=false/,
    );
  });

  it('refuses an inference profile of another geography than the region', () => {
    expect(problemsOf({ region: 'eu-west-1', waf: false })).toMatch(
      /chatModelId: the us\. inference profile/,
    );
  });

  it('names every invalid key at once', () => {
    const message = problemsOf({
      logRetentionDays: 31,
      speechRegion: 'East US',
      throttle: { chat: { rateLimit: -1 } },
      domainName: 'astro.example.org',
      alarmEmail: 'not-an-email',
    });
    expect(message).toContain('logRetentionDays');
    expect(message).toContain('speechRegion');
    expect(message).toContain('throttle.chat.rateLimit');
    expect(message).toContain('certificateArn: domainName and certificateArn go together');
    expect(message).toContain('alarmEmail');
  });

  it('accepts a certificate only from us-east-1, where CloudFront takes them', () => {
    expect(
      problemsOf({
        domainName: 'astro.example.org',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
      }),
    ).toMatch(/certificateArn: .*us-east-1/);
  });
});
