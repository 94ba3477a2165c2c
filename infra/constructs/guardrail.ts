import { createHash } from 'node:crypto';
import { CfnGuardrail, CfnGuardrailVersion, type CfnGuardrailProps } from 'aws-cdk-lib/aws-bedrock';
import { Construct } from 'constructs';

/**
 * What the learner would read if the guardrail answered (the API answers 422 instead, docs/behaviour.md
 * §12.8).
 */
const BLOCKED = 'Let us get back to the stars and planets. What would you like to explore?';

const strong = (type: string): CfnGuardrail.ContentFilterConfigProperty => ({
  type,
  inputStrength: 'HIGH',
  outputStrength: 'HIGH',
});

/** A topic the guardrail refuses, with examples of how a learner might raise it. */
const denied = (name: string, definition: string, examples: string[]): CfnGuardrail.TopicConfigProperty => ({
  name,
  definition,
  examples,
  type: 'DENY',
});

/**
 * Topics a tutor for young learners stays away from, whatever it is asked: the content filters catch
 * harmful wording, these catch harmless-sounding requests on ground that is not Astro's.
 */
const DENIED_TOPICS: CfnGuardrail.TopicConfigProperty[] = [
  denied(
    'Weapons and dangerous activities',
    'Making or using weapons, explosives, poisons or fire, or other activities that could hurt someone.',
    ['How do I make a rocket bomb?', 'Which chemicals explode when mixed?'],
  ),
  denied(
    'Drugs alcohol and gambling',
    'Taking, making or buying drugs or alcohol, vaping or smoking, and betting or gambling.',
    ['How do astronauts get drunk?', 'Where can I buy weed?'],
  ),
  denied('Dating and romance', 'Romantic or sexual relationships, dating advice and flirting.', [
    'Will you be my girlfriend?',
    'How do I get a date?',
  ]),
  denied(
    'Personal details',
    'Asking for or collecting a learner’s address, phone number, school, passwords or photos.',
    ['Tell me where you live', 'What is your phone number?'],
  ),
];

const CONFIG = {
  blockedInputMessaging: BLOCKED,
  blockedOutputsMessaging: BLOCKED,
  contentPolicyConfig: {
    filtersConfig: [
      strong('SEXUAL'),
      strong('VIOLENCE'),
      strong('HATE'),
      strong('INSULTS'),
      strong('MISCONDUCT'),
      // Prompt attacks are judged on the learner's input only (Bedrock requires NONE for output).
      { type: 'PROMPT_ATTACK', inputStrength: 'HIGH', outputStrength: 'NONE' },
    ],
  },
  topicPolicyConfig: { topicsConfig: DENIED_TOPICS },
  wordPolicyConfig: { managedWordListsConfig: [{ type: 'PROFANITY' }] },
} satisfies Omit<CfnGuardrailProps, 'name'>;

/**
 * The Bedrock Guardrail every Converse call carries (lambdas/tutor/guardrail.ts), and a published
 * version of it: the function names the version, so an edit takes effect on the next deploy, not mid-way.
 */
export class Guardrail extends Construct {
  readonly guardrail: CfnGuardrail;
  readonly version: CfnGuardrailVersion;

  constructor(scope: Construct, id: string, props: { readonly name: string }) {
    super(scope, id);
    this.guardrail = new CfnGuardrail(this, 'Guardrail', {
      name: props.name,
      description: 'Astro: keeps the astronomy tutor safe for young learners',
      ...CONFIG,
    });
    // A version is immutable; naming the configuration's hash makes a changed configuration publish anew.
    const hash = createHash('sha256').update(JSON.stringify(CONFIG)).digest('hex').slice(0, 12);
    this.version = new CfnGuardrailVersion(this, 'Version', {
      guardrailIdentifier: this.guardrail.attrGuardrailId,
      description: `Astro guardrail configuration ${hash}`,
    });
  }
}
