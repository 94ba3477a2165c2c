import type { TutorConfig } from '../config';
import { ApiError } from '../lib/api-error';
import { errorFields, log } from '../lib/log';
import { createBedrockTutor } from './bedrock-tutor';
import { createOpenAiTutor } from './openai-tutor';
import type { Tutor } from './tutor';

/** The tutor that `ASTRO_MODEL` names (offline unless configured), built once per cold start. */
export function createTutor(config: TutorConfig): Tutor {
  switch (config.provider) {
    case 'bedrock':
      return createBedrockTutor(config);
    case 'openai':
      return createOpenAiTutor(config);
    case 'offline':
      // Loaded only when configured, so a Bedrock or OpenAI function never reads every lesson file
      // (docs/behaviour.md §15.9).
      return loadedTutor(async () => (await import('./offline/offline-tutor')).createOfflineTutor());
  }
}

/**
 * The offline tutor, whose module and lessons load as soon as it is chosen (during the Lambda's init)
 * and are awaited by the first replies. A lesson file that cannot be read or is broken makes every
 * reply 503 `not_configured` (docs/behaviour.md §15.9), logged once.
 */
export function loadedTutor(load: () => Promise<Tutor>): Tutor {
  const ready: Promise<Tutor | undefined> = load().catch((error: unknown) => {
    log.error('offline lessons unusable', errorFields(error));
    return undefined;
  });
  const tutor = async (): Promise<Tutor> => {
    const loaded = await ready;
    if (!loaded) throw new ApiError('not_configured', 'This endpoint is not configured on the server.');
    return loaded;
  };
  return {
    provider: 'offline',
    async reply(request, signal) {
      return (await tutor()).reply(request, signal);
    },
    async *stream(request, signal) {
      yield* (await tutor()).stream(request, signal);
    },
  };
}
