import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { PictureConfig } from '../config';
import { IMAGES_PATH_PREFIX } from '../contract/routes';
import { deadline } from '../upstream/deadline';
import { fromAwsError } from '../upstream/upstream-errors';
import type { MadePicture } from './picture-maker';
import { PICTURE_EXTENSIONS } from './picture-key';

export interface StoredPicture {
  /** Same-origin `/images/<uuid>.<ext>`, served by CloudFront (deployed) or the local server. */
  readonly url: string;
}

/**
 * Where pictures are kept once drawn: S3 when deployed, a directory locally. Each is stored under its
 * picture key (`pictureKey`), so a picture already drawn is found instead of drawn again.
 */
export interface PictureStore {
  /** The stored picture with this key, if there is one. */
  find(key: string, signal?: AbortSignal): Promise<StoredPicture | undefined>;
  save(key: string, picture: MadePicture, signal?: AbortSignal): Promise<StoredPicture>;
}

/** A picture's file name: its key, which never names a different picture, so it can be cached forever. */
function fileNameOf(key: string, picture: MadePicture): string {
  return `${key}.${picture.extension}`;
}

const urlOf = (fileName: string): StoredPicture => ({ url: `${IMAGES_PATH_PREFIX}${fileName}` });

export interface S3ImageStoreOptions {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly timeoutMs: number;
}

/**
 * Objects under `images/` in the picture bucket, which CloudFront serves at `/images/*`. Each object
 * carries its content type and an immutable cache policy (its name is never reused).
 */
export function createS3ImageStore(options: S3ImageStoreOptions): PictureStore {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    credentials: options.credentials,
    // A custom endpoint (a local stand-in or a test fake) serves buckets by path, not by host name.
    forcePathStyle: options.endpoint !== undefined,
  });
  return {
    async find(key, signal) {
      const limit = deadline(options.timeoutMs, signal);
      try {
        for (const extension of PICTURE_EXTENSIONS) {
          const fileName = `${key}.${extension}`;
          try {
            await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key: `images/${fileName}` }), {
              abortSignal: limit.signal,
            });
            return urlOf(fileName);
          } catch (error) {
            // Missing (404 needs s3:ListBucket, which the function has; without it S3 would say 403).
            if ((error as { name?: string }).name === 'NotFound') continue;
            throw fromAwsError(error, limit);
          }
        }
        return undefined;
      } finally {
        limit.dispose();
      }
    },
    async save(key, picture, signal) {
      const fileName = fileNameOf(key, picture);
      const limit = deadline(options.timeoutMs, signal);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: options.bucket,
            Key: `images/${fileName}`,
            Body: picture.bytes,
            ContentType: picture.contentType,
            CacheControl: 'public, max-age=31536000, immutable',
          }),
          { abortSignal: limit.signal },
        );
      } catch (error) {
        throw fromAwsError(error, limit);
      } finally {
        limit.dispose();
      }
      return urlOf(fileName);
    },
  };
}

/** Files in a directory (`.data/images` by default), which the local server serves at `/images/*`. */
export function createLocalPictureStore(directory: string): PictureStore {
  return {
    async find(key) {
      for (const extension of PICTURE_EXTENSIONS) {
        const fileName = `${key}.${extension}`;
        const info = await stat(join(directory, fileName)).catch(() => undefined);
        if (info?.isFile()) return urlOf(fileName);
      }
      return undefined;
    },
    async save(key, picture) {
      const fileName = fileNameOf(key, picture);
      await mkdir(directory, { recursive: true });
      await writeFile(join(directory, fileName), picture.bytes);
      return urlOf(fileName);
    },
  };
}

export function createPictureStore(config: PictureConfig): PictureStore {
  if (config.store === 'local') return createLocalPictureStore(config.directory);
  if (!config.bucket) throw new Error('IMAGE_BUCKET is required when IMAGE_STORE=s3');
  return createS3ImageStore({
    bucket: config.bucket,
    region: config.region,
    endpoint: config.s3.endpoint,
    credentials: config.s3.credentials,
    timeoutMs: config.timeoutMs,
  });
}
