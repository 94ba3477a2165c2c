import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { z } from 'zod';
import type { SpeechConfig } from '../config';
import { CachedSecret, secretsManagerClient } from '../upstream/cached-secret';

/** The Azure Speech key and the region it belongs to. Never logged, never sent to the browser. */
export interface SpeechKey {
  readonly key: string;
  readonly region: string;
}

/** Where the key comes from: Secrets Manager when deployed, `AZURE_SPEECH_KEY` locally. */
export interface SpeechKeySource {
  /** The key, or undefined when none is configured. */
  get(): Promise<SpeechKey | undefined>;
  /** Forgets a cached key, e.g. after Azure refused it because it was rotated. */
  forget(): void;
}

/** How long a key read from Secrets Manager is reused before it is read again. */
export const SECRET_CACHE_MS = 5 * 60 * 1000;

const regionSchema = z.string().regex(/^[a-z0-9]+$/);
/** A key is a printable token without spaces (Azure keys are 32 hex or 84 base62 characters). */
const keySchema = z.string().regex(/^[\x21-\x7e]{8,512}$/);
const secretJsonSchema = z.object({ key: keySchema, region: regionSchema.optional() });

/**
 * Reads the SecretString: the bare key, or JSON `{"key", "region"}` whose region overrides the configured
 * one. Returns undefined for an empty or malformed secret (treated as "not configured"); the secret's
 * content never reaches an error message.
 */
export function parseSpeechSecret(secret: string, fallbackRegion: string): SpeechKey | undefined {
  const text = secret.trim();
  if (text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = secretJsonSchema.safeParse(json);
    return parsed.success
      ? { key: parsed.data.key, region: parsed.data.region ?? fallbackRegion }
      : undefined;
  }
  return keySchema.safeParse(text).success ? { key: text, region: fallbackRegion } : undefined;
}

/** A key given directly in the environment (local runs). */
export class EnvSpeechKeySource implements SpeechKeySource {
  private readonly value: SpeechKey | undefined;

  constructor(key: string | undefined, region: string) {
    this.value = key === undefined ? undefined : parseSpeechSecret(key, region);
  }

  async get(): Promise<SpeechKey | undefined> {
    return this.value;
  }

  forget(): void {}
}

/** The key in Secrets Manager, cached in memory for at most {@link SECRET_CACHE_MS}. */
export class SecretsManagerSpeechKeySource implements SpeechKeySource {
  private readonly secret: CachedSecret<SpeechKey | undefined>;

  constructor(client: SecretsManagerClient, secretId: string, fallbackRegion: string, now?: () => number) {
    this.secret = new CachedSecret(client, {
      secretId,
      cacheMs: SECRET_CACHE_MS,
      // An empty or malformed secret, or none at all, is a deployment without a key: 503, not an outage.
      parse: (text) => (text === undefined ? undefined : parseSpeechSecret(text, fallbackRegion)),
      missingIsEmpty: true,
      what: 'the speech key',
      now,
    });
  }

  get(): Promise<SpeechKey | undefined> {
    return this.secret.get();
  }

  forget(): void {
    this.secret.forget();
  }
}

/** The configured key source: Secrets Manager when a secret id is set, else the local key (if any). */
export function createSpeechKeySource(config: SpeechConfig, now?: () => number): SpeechKeySource {
  if (config.secretId) {
    const client = secretsManagerClient({
      region: config.awsRegion,
      endpoint: config.secretsManagerEndpoint,
      timeoutMs: config.secretsManagerTimeoutMs,
    });
    return new SecretsManagerSpeechKeySource(client, config.secretId, config.region, now);
  }
  return new EnvSpeechKeySource(config.localKey, config.region);
}
