import { describe, expect, it } from 'vitest';
import { ConfigError, endpointOverride, readFeedbackConfig, readSpeechConfig } from '#lambdas/config';
import { createFeedbackHandler } from '#lambdas/feedback/handler';
import { createSpeechTokenHandler } from '#lambdas/speech-token/handler';

describe('feedback configuration', () => {
  it('reads the table, endpoint, timeout and region', () => {
    const config = readFeedbackConfig({
      FEEDBACK_TABLE: 'astro-feedback',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:4567',
      DYNAMODB_TIMEOUT_MS: '1500',
      FEEDBACK_RETENTION_DAYS: '90',
      AWS_REGION: 'eu-west-1',
    });

    expect(config).toEqual({
      tableName: 'astro-feedback',
      endpoint: 'http://127.0.0.1:4567',
      timeoutMs: 1500,
      retentionDays: 90,
      region: 'eu-west-1',
    });
  });

  it('defaults to the real DynamoDB endpoint, a 3 s timeout, 400 days of retention and us-east-1', () => {
    expect(readFeedbackConfig({ FEEDBACK_TABLE: 't1x', DYNAMODB_ENDPOINT: '  ' })).toEqual({
      tableName: 't1x',
      endpoint: undefined,
      timeoutMs: 3000,
      retentionDays: 400,
      region: 'us-east-1',
    });
  });

  it.each([
    ['FEEDBACK_TABLE', {}],
    ['FEEDBACK_TABLE', { FEEDBACK_TABLE: '   ' }],
    ['DYNAMODB_ENDPOINT', { FEEDBACK_TABLE: 't', DYNAMODB_ENDPOINT: 'not a url' }],
    ['DYNAMODB_TIMEOUT_MS', { FEEDBACK_TABLE: 't', DYNAMODB_TIMEOUT_MS: 'soon' }],
    ['DYNAMODB_TIMEOUT_MS', { FEEDBACK_TABLE: 't', DYNAMODB_TIMEOUT_MS: '-5' }],
    ['FEEDBACK_RETENTION_DAYS', { FEEDBACK_TABLE: 't', FEEDBACK_RETENTION_DAYS: '0' }],
  ])('names %s when it is missing or invalid', (variable, env) => {
    expect(() => readFeedbackConfig(env)).toThrow(ConfigError);
    expect(() => readFeedbackConfig(env)).toThrow(variable);
  });

  it('is what the feedback handler is built from', () => {
    expect(() => createFeedbackHandler({})).toThrow('FEEDBACK_TABLE');
  });
});

describe('speech configuration', () => {
  it('defaults to no key, region eastus and the real Azure and AWS endpoints', () => {
    expect(readSpeechConfig({})).toEqual({
      secretId: undefined,
      localKey: undefined,
      region: 'eastus',
      stsBaseUrl: undefined,
      secretsManagerEndpoint: undefined,
      stsTimeoutMs: 5000,
      secretsManagerTimeoutMs: 3000,
      awsRegion: 'us-east-1',
    });
  });

  it('reads a deployed secret id and a local key', () => {
    const config = readSpeechConfig({
      SPEECH_SECRET_ID: 'astro/azure-speech',
      AZURE_SPEECH_KEY: 'abc123abc123',
      AZURE_SPEECH_REGION: 'westeurope',
      SPEECH_STS_TIMEOUT_MS: '2500',
    });

    expect(config).toMatchObject({
      secretId: 'astro/azure-speech',
      localKey: 'abc123abc123',
      region: 'westeurope',
      stsTimeoutMs: 2500,
    });
  });

  it.each([
    ['AZURE_SPEECH_REGION', { AZURE_SPEECH_REGION: 'East US' }],
    ['AZURE_STS_BASE_URL', { AZURE_STS_BASE_URL: 'sts.local' }],
    ['SECRETS_MANAGER_ENDPOINT', { SECRETS_MANAGER_ENDPOINT: '://' }],
    ['SPEECH_STS_TIMEOUT_MS', { SPEECH_STS_TIMEOUT_MS: '0' }],
  ])('names %s when it is invalid', (variable, env) => {
    expect(() => readSpeechConfig(env)).toThrow(variable);
  });

  it('never puts the key’s value in a configuration error', () => {
    expect(() =>
      createSpeechTokenHandler({ AZURE_SPEECH_KEY: 'v4lu3-0f-k3y', AZURE_SPEECH_REGION: '!!' }),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining('v4lu3-0f-k3y') }));
  });
});

describe('endpointOverride', () => {
  it('adds dummy credentials only when an endpoint override is set', () => {
    expect(endpointOverride(undefined)).toEqual({});
    expect(endpointOverride('http://127.0.0.1:1')).toEqual({
      endpoint: 'http://127.0.0.1:1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  });
});
