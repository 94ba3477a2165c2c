/**
 * The server-held key that signs Astro's replies and picture tickets (docs/behaviour.md §12.5): in Secrets
 * Manager when deployed (a value the stack generates, readable by the chat and generateImage functions
 * only), in a file under `.data/` locally (created at first start, mode 0600). The key never leaves the
 * server and is never logged.
 *
 * The secret is JSON `{"current": "…", "previous"?: "…"}`. Replies and tickets are signed with `current`;
 * both keys are accepted while checking, so a rotation (docs/deploy.md, "Rotating the signing key") never
 * invalidates the conversations in progress.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { z } from 'zod';
import { ApiError } from '../lib/api-error';
import { CachedSecret, secretsManagerClient } from '../upstream/cached-secret';

export interface TrustKeys {
  /** Signs everything new. */
  readonly current: Buffer;
  /** Still accepted while a rotation settles. */
  readonly previous?: Buffer;
}

export interface TrustKeySource {
  get(): Promise<TrustKeys>;
}

/** How long a key read from Secrets Manager is reused: a rotation reaches every instance within this. */
export const TRUST_KEY_CACHE_MS = 5 * 60 * 1000;

/** At least 32 printable characters: the stack generates 64 letters and digits (~380 bits). */
const keyText = z.string().regex(/^[\x21-\x7e]{32,512}$/);
const secretSchema = z.object({ current: keyText, previous: keyText.optional() });

/** Reads the secret's JSON; a malformed secret is a configuration fault whose content is never echoed. */
export function parseTrustSecret(text: string): TrustKeys {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('the signing key secret is not JSON');
  }
  const parsed = secretSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      'the signing key secret needs "current" (and optionally "previous"): 32+ characters each',
    );
  }
  const { current, previous } = parsed.data;
  return previous === undefined
    ? { current: Buffer.from(current) }
    : { current: Buffer.from(current), previous: Buffer.from(previous) };
}

/** A fresh secret value, in the format the stack generates. */
export function newTrustSecret(): string {
  return JSON.stringify({ current: randomBytes(48).toString('base64url') });
}

/** A fixed key (tests, and a single process with nothing configured: the key lives as long as it does). */
export function fixedTrustKeys(keys: TrustKeys): TrustKeySource {
  return { get: () => Promise.resolve(keys) };
}

/**
 * The key in a local file, created on first use with mode 0600 (exclusively: two processes starting at
 * once agree on one key). Read once; a rotation locally is "delete the file and restart".
 */
export function fileTrustKeys(path: string): TrustKeySource {
  let loaded: Promise<TrustKeys> | undefined;
  const load = async (): Promise<TrustKeys> => {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    try {
      const file = await open(path, 'wx', 0o600);
      try {
        await file.writeFile(newTrustSecret());
      } finally {
        await file.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return parseTrustSecret(await readFile(path, 'utf8'));
  };
  return {
    get: () =>
      (loaded ??= load().catch((error: unknown) => {
        loaded = undefined;
        throw new ApiError('internal_error', 'The server could not read its signing key.', { cause: error });
      })),
  };
}

/** The key in Secrets Manager, read at most once per {@link TRUST_KEY_CACHE_MS}, one read in flight. */
export class SecretsManagerTrustKeys implements TrustKeySource {
  private readonly secret: CachedSecret<TrustKeys>;

  constructor(client: SecretsManagerClient, secretId: string, now?: () => number) {
    this.secret = new CachedSecret(client, {
      secretId,
      cacheMs: TRUST_KEY_CACHE_MS,
      parse: (text) => {
        try {
          return parseTrustSecret(text ?? '');
        } catch (error) {
          throw new ApiError('not_configured', 'The server has no valid signing key.', { cause: error });
        }
      },
      what: 'the signing key',
      now,
    });
  }

  get(): Promise<TrustKeys> {
    return this.secret.get();
  }
}

export interface SecretsManagerTrustOptions {
  readonly secretId: string;
  readonly region: string;
  readonly endpoint?: string;
  readonly timeoutMs: number;
  readonly now?: () => number;
}

export function secretsManagerTrustKeys(options: SecretsManagerTrustOptions): TrustKeySource {
  const client = secretsManagerClient({
    region: options.region,
    endpoint: options.endpoint,
    timeoutMs: options.timeoutMs,
    maxAttempts: 2,
  });
  return new SecretsManagerTrustKeys(client, options.secretId, options.now);
}
