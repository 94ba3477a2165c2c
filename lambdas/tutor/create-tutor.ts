import type { TutorConfig } from '../config';
import { createBedrockTutor } from './bedrock-tutor';
import { createOfflineTutor } from './offline/offline-tutor';
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
      return createOfflineTutor();
  }
}
