import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { z } from 'zod';
import { endpointOverride, type SpeechConfig } from '../config';
import { ApiError } from '../http/api-error';

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
  private cached: { value: SpeechKey | undefined; readAt: number } | undefined;
  private pending: Promise<SpeechKey | undefined> | undefined;

  constructor(
    private readonly client: SecretsManagerClient,
    private readonly secretId: string,
    private readonly fallbackRegion: string,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<SpeechKey | undefined> {
    if (this.cached && this.now() - this.cached.readAt < SECRET_CACHE_MS) {
      return Promise.resolve(this.cached.value);
    }
    // Callers arriving while the secret is being read share that one read.
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  forget(): void {
    this.cached = undefined;
  }

  private async read(): Promise<SpeechKey | undefined> {
    let secretString: string | undefined;
    try {
      const output = await this.client.send(new GetSecretValueCommand({ SecretId: this.secretId }));
      secretString = output.SecretString;
    } catch (error) {
      // A secret that does not exist (yet) is a deployment without a key, not an outage.
      if (!(error instanceof Error && error.name === 'ResourceNotFoundException')) {
        throw secretsManagerError(error);
      }
    }
    const value =
      secretString === undefined ? undefined : parseSpeechSecret(secretString, this.fallbackRegion);
    this.cached = { value, readAt: this.now() };
    return value;
  }
}

function secretsManagerError(error: unknown): ApiError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ApiError('upstream_timeout', 'Reading the speech key took too long. Please try again.', {
      cause: error,
    });
  }
  if (name === 'ThrottlingException') {
    return new ApiError('rate_limited', 'Too many speech token requests right now. Please try again.', {
      cause: error,
    });
  }
  return new ApiError('upstream_error', 'The speech key could not be read. Please try again.', {
    cause: error,
  });
}

/** The configured key source: Secrets Manager when a secret id is set, else the local key (if any). */
export function createSpeechKeySource(config: SpeechConfig, now?: () => number): SpeechKeySource {
  if (config.secretId) {
    const client = new SecretsManagerClient({
      region: config.awsRegion,
      ...endpointOverride(config.secretsManagerEndpoint),
      requestHandler: {
        connectionTimeout: config.secretsManagerTimeoutMs,
        requestTimeout: config.secretsManagerTimeoutMs,
        throwOnRequestTimeout: true,
      },
    });
    return new SecretsManagerSpeechKeySource(client, config.secretId, config.region, now);
  }
  return new EnvSpeechKeySource(config.localKey, config.region);
}
