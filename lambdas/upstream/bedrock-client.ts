/**
 * The Bedrock Runtime client both the tutor (Converse) and the picture maker (InvokeModel) use, built
 * one way. The SDK's retries are off: the learner is waiting, a retried throttled call only deepens the
 * throttling, and the web app returns to listening on failure so the learner can simply ask again.
 */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { EndpointOverride } from '../config';

export interface BedrockSettings extends EndpointOverride {
  readonly region: string;
}

export function bedrockRuntimeClient({
  region,
  endpoint,
  credentials,
}: BedrockSettings): BedrockRuntimeClient {
  return new BedrockRuntimeClient({ region, endpoint, credentials, maxAttempts: 1 });
}
