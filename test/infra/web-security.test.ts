import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiGatewaySchema } from '#infra/constructs/request-models';
import { contentSecurityPolicy, speechHosts } from '#contract/security-headers';

describe('speech hosts', () => {
  it('are the recognition and synthesis hosts of the region, as the Azure Speech SDK builds them', () => {
    expect(speechHosts('eastus')).toEqual([
      'wss://eastus.stt.speech.microsoft.com',
      'wss://eastus.tts.speech.microsoft.com',
      'https://eastus.tts.speech.microsoft.com',
    ]);
  });

  it('use the sovereign clouds’ domains for China and US Government regions', () => {
    expect(speechHosts('chinaeast2')[0]).toBe('wss://chinaeast2.stt.speech.azure.cn');
    expect(speechHosts('usgovvirginia')[0]).toBe('wss://usgovvirginia.stt.speech.azure.us');
  });

  it('refuse a region that could inject another source into the policy', () => {
    expect(() => contentSecurityPolicy("eastus; script-src 'unsafe-inline'")).toThrow(/Azure region/);
  });
});

describe('API Gateway models from zod', () => {
  it('drop a format draft 4 does not define when a pattern carries the same rule', () => {
    const schema = apiGatewaySchema(z.object({ id: z.uuid() })) as {
      properties: { id: Record<string, unknown> };
    };
    expect(schema.properties.id.format).toBeUndefined();
    expect(schema.properties.id.pattern).toEqual(expect.any(String));
  });

  it('keep the draft 4 formats API Gateway understands', () => {
    const schema = apiGatewaySchema(z.object({ at: z.iso.datetime() })) as {
      properties: { at: Record<string, unknown> };
    };
    expect(schema.properties.at.format).toBe('date-time');
  });

  it('fail synth on a keyword API Gateway would not understand', () => {
    expect(() =>
      apiGatewaySchema(
        z.object({ tags: z.record(z.string(), z.string()).optional(), x: z.tuple([z.string()]) }),
      ),
    ).toThrow(/not supported/);
  });
});
