import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPictureConfig } from '#lambdas/config';
import { createPictureStore, createLocalPictureStore } from '#lambdas/pictures/picture-store';
import type { MadePicture } from '#lambdas/pictures/picture-maker';
import { TINY_PNG } from '#support/bedrock-fake';
import { startS3Fake, type S3Fake } from '#support/s3-fake';
import { hang } from '#support/loopback';

const png: MadePicture = { bytes: new Uint8Array(TINY_PNG), contentType: 'image/png', extension: 'png' };
const KEY = '0123456789abcdef0123456789abcdef';

describe('the S3 image store (real S3 client against a loopback fake)', () => {
  let s3: S3Fake;
  beforeAll(async () => {
    s3 = await startS3Fake();
  });
  afterAll(() => s3.close());

  const store = (timeoutMs = '2000') =>
    createPictureStore(
      readPictureConfig({
        IMAGE_STORE: 's3',
        IMAGE_BUCKET: 'astro-images',
        S3_ENDPOINT: s3.url,
        IMAGE_TIMEOUT_MS: timeoutMs,
      }),
    );

  it('puts the picture under images/<key>.<ext> with its content type and an immutable cache policy', async () => {
    const { url } = await store().save(KEY, png);

    expect(url).toBe(`/images/${KEY}.png`);
    const stored = s3.objects.get(`astro-images${url}`);
    expect(stored).toBeDefined();
    expect(stored?.key).toBe(url.slice(1));
    expect(stored?.contentType).toBe('image/png');
    expect(stored?.cacheControl).toBe('public, max-age=31536000, immutable');
    expect(stored?.body.equals(TINY_PNG)).toBe(true);
  });

  it('finds a stored picture by its key, and nothing for a key never stored', async () => {
    await store().save('feedfacefeedfacefeedfacefeedface', png);

    expect(await store().find('feedfacefeedfacefeedfacefeedface')).toEqual({
      url: '/images/feedfacefeedfacefeedfacefeedface.png',
    });
    expect(await store().find('00000000000000000000000000000000')).toBeUndefined();
  });

  it('answers a failing bucket with upstream_error and a hanging one with upstream_timeout', async () => {
    s3.respondWith((_request, response) => {
      response.writeHead(500, { 'Content-Type': 'application/xml' });
      response.end('<Error><Code>InternalError</Code><Message>private detail</Message></Error>');
    });
    await expect(store().save(KEY, png)).rejects.toMatchObject({ code: 'upstream_error' });
    await expect(store().find(KEY)).rejects.toMatchObject({ code: 'upstream_error' });

    s3.respondWith(hang);
    await expect(store('300').save(KEY, png)).rejects.toMatchObject({ code: 'upstream_timeout' });
    await expect(store('300').find(KEY)).rejects.toMatchObject({ code: 'upstream_timeout' });
  });
});

describe('the local image store', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'astro-images-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('writes <key>.<ext> into its directory, creating it, returns the /images/ URL and finds it again', async () => {
    const nested = join(directory, 'images');
    const svg: MadePicture = {
      bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      contentType: 'image/svg+xml',
      extension: 'svg',
    };

    expect(await createLocalPictureStore(nested).find(KEY)).toBeUndefined();
    const { url } = await createLocalPictureStore(nested).save(KEY, svg);

    expect(url).toBe(`/images/${KEY}.svg`);
    expect(await readFile(join(nested, url.slice('/images/'.length)), 'utf8')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    expect(await createLocalPictureStore(nested).find(KEY)).toEqual({ url });
  });
});
