import { describe, expect, it } from 'vitest';
import { ConfigError, readPictureConfig, readTutorConfig } from '#lambdas/config';

describe('the tutor configuration', () => {
  it('uses the offline tutor when nothing is set', () => {
    const config = readTutorConfig({});
    expect(config.provider).toBe('offline');
    expect(config.timeoutMs).toBe(20_000);
  });

  it('names each variable an OpenAI-compatible tutor still needs', () => {
    expect(() => readTutorConfig({ ASTRO_MODEL: 'openai' })).toThrow(ConfigError);
    expect(() => readTutorConfig({ ASTRO_MODEL: 'openai' })).toThrow(
      /OPENAI_BASE_URL \(required when ASTRO_MODEL=openai\).*OPENAI_MODEL \(required when ASTRO_MODEL=openai\)/,
    );
    const ready = readTutorConfig({
      ASTRO_MODEL: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'llama3.2',
    });
    expect(ready.openai).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
  });

  it('refuses an unknown provider by name', () => {
    expect(() => readTutorConfig({ ASTRO_MODEL: 'gpt' })).toThrow(/ASTRO_MODEL/);
  });
});

describe('the image configuration', () => {
  it('stores pictures locally with the offline sketcher when nothing is set', () => {
    const config = readPictureConfig({});
    expect(config).toMatchObject({ provider: 'offline', store: 'local', directory: '.data/images' });
  });

  it('needs a bucket for the S3 store and a base URL for OpenAI-compatible pictures', () => {
    expect(() => readPictureConfig({ IMAGE_STORE: 's3' })).toThrow(
      /IMAGE_BUCKET \(required when IMAGE_STORE=s3\)/,
    );
    expect(() => readPictureConfig({ ASTRO_IMAGE_MODEL: 'openai' })).toThrow(
      /OPENAI_BASE_URL \(required when ASTRO_IMAGE_MODEL=openai\)/,
    );
    expect(readPictureConfig({ IMAGE_STORE: 's3', IMAGE_BUCKET: 'astro-images' }).bucket).toBe(
      'astro-images',
    );
  });
});
