import { z } from 'zod';
import { ConfigError, optionalText, optionalUrl, type Env } from '../config';
import { log } from '../lib/log';
import { Trust } from './trust';
import {
  fileTrustKeys,
  fixedTrustKeys,
  newTrustSecret,
  parseTrustSecret,
  secretsManagerTrustKeys,
  type TrustKeySource,
} from './trust-keys';

const trustSchema = z.object({
  /** Secrets Manager id of the signing key (deployed). */
  TRUST_SECRET_ID: optionalText,
  /** A file holding the key (local: `.data/trust-key.json`, created on first start). */
  TRUST_KEY_FILE: optionalText,
  /** The key's JSON itself (`{"current": "…"}`), for tests and one-off runs. */
  TRUST_KEY: optionalText,
  SECRETS_MANAGER_ENDPOINT: optionalUrl,
  SECRETS_MANAGER_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  AWS_REGION: optionalText,
  AWS_LAMBDA_FUNCTION_NAME: optionalText,
});

/**
 * The signing key as configured. Deployed, a function without TRUST_SECRET_ID refuses to start (503
 * `not_configured`): a key of its own would not match the other instances'. Elsewhere (tests, a script)
 * nothing configured means a random key for this process's life.
 */
export function createTrust(env: Env, now?: () => number): Trust {
  const parsed = trustSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(`Invalid trust configuration: ${parsed.error.issues[0]?.message}`);
  const config = parsed.data;
  let source: TrustKeySource;
  if (config.TRUST_SECRET_ID) {
    source = secretsManagerTrustKeys({
      secretId: config.TRUST_SECRET_ID,
      region: config.AWS_REGION ?? 'us-east-1',
      endpoint: config.SECRETS_MANAGER_ENDPOINT,
      timeoutMs: config.SECRETS_MANAGER_TIMEOUT_MS,
      now,
    });
  } else if (config.TRUST_KEY_FILE) {
    source = fileTrustKeys(config.TRUST_KEY_FILE);
  } else if (config.TRUST_KEY) {
    try {
      source = fixedTrustKeys(parseTrustSecret(config.TRUST_KEY));
    } catch (error) {
      throw new ConfigError(`Invalid trust configuration: TRUST_KEY (${(error as Error).message})`);
    }
  } else if (config.AWS_LAMBDA_FUNCTION_NAME) {
    throw new ConfigError('Invalid trust configuration: TRUST_SECRET_ID (required in Lambda)');
  } else {
    log.debug('signing with a key for this process only');
    source = fixedTrustKeys(parseTrustSecret(newTrustSecret()));
  }
  // Read the key while the function starts (and create the local file at first start), so the first
  // learner does not wait for it.
  if (config.AWS_LAMBDA_FUNCTION_NAME || config.TRUST_KEY_FILE) void source.get().catch(() => undefined);
  return new Trust(source, now);
}
