import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ImageConfig } from '../config';
import { IMAGES_PATH_PREFIX } from '../contract/routes';
import { deadline, fromAwsError } from '../tutor/upstream';
import type { MadeImage } from './image-maker';

export interface StoredImage {
  /** Same-origin `/images/<uuid>.<ext>`, served by CloudFront (deployed) or the local server. */
  readonly url: string;
}

/** Where pictures are kept once drawn: S3 when deployed, a directory locally. */
export interface ImageStore {
  save(image: MadeImage, signal?: AbortSignal): Promise<StoredImage>;
}

/** A fresh name per picture: URLs are unguessable and never reused, so they can be cached forever. */
function newFileName(image: MadeImage): string {
  return `${crypto.randomUUID()}.${image.extension}`;
}

const urlOf = (fileName: string): StoredImage => ({ url: `${IMAGES_PATH_PREFIX}${fileName}` });

export interface S3ImageStoreOptions {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly timeoutMs: number;
}

/**
 * Objects under `images/` in the image bucket, which CloudFront serves at `/images/*`. Each object
 * carries its content type and an immutable cache policy (its name is never reused).
 */
export function createS3ImageStore(options: S3ImageStoreOptions): ImageStore {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    credentials: options.credentials,
    // A custom endpoint (a local stand-in or a test fake) serves buckets by path, not by host name.
    forcePathStyle: options.endpoint !== undefined,
  });
  return {
    async save(image, signal) {
      const fileName = newFileName(image);
      const limit = deadline(options.timeoutMs, signal);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: options.bucket,
            Key: `images/${fileName}`,
            Body: image.bytes,
            ContentType: image.contentType,
            CacheControl: 'public, max-age=31536000, immutable',
          }),
          { abortSignal: limit.signal },
        );
      } catch (error) {
        throw fromAwsError(error, limit);
      }
      return urlOf(fileName);
    },
  };
}

/** Files in a directory (`.data/images` by default), which the local server serves at `/images/*`. */
export function createLocalImageStore(directory: string): ImageStore {
  return {
    async save(image) {
      const fileName = newFileName(image);
      await mkdir(directory, { recursive: true });
      await writeFile(join(directory, fileName), image.bytes);
      return urlOf(fileName);
    },
  };
}

export function createImageStore(config: ImageConfig): ImageStore {
  if (config.store === 'local') return createLocalImageStore(config.directory);
  if (!config.bucket) throw new Error('IMAGE_BUCKET is required when IMAGE_STORE=s3');
  return createS3ImageStore({
    bucket: config.bucket,
    region: config.region,
    endpoint: config.s3.endpoint,
    credentials: config.s3.credentials,
    timeoutMs: config.timeoutMs,
  });
}
