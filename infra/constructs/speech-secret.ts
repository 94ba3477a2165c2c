import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export interface SpeechSecretProps {
  readonly secretName: string;
  /** `create` makes the secret (empty: the operator puts the key after deploy); `import` uses one by name. */
  readonly mode: 'create' | 'import';
}

/**
 * The Azure Speech key, kept in Secrets Manager so it never reaches the browser: only the speech-token
 * function may read it, and it hands the browser a 10-minute token instead.
 */
export class SpeechSecret extends Construct {
  readonly secret: ISecret;
  /** What the function passes to GetSecretValue: the full ARN when created here, else the name. */
  readonly secretId: string;
  readonly secretName: string;

  constructor(scope: Construct, id: string, props: SpeechSecretProps) {
    super(scope, id);
    this.secretName = props.secretName;
    if (props.mode === 'import') {
      this.secret = Secret.fromSecretNameV2(this, 'Secret', props.secretName);
      this.secretId = props.secretName;
      return;
    }
    const secret = new Secret(this, 'Secret', {
      secretName: props.secretName,
      description: 'Azure Speech key for Astro: {"key":"...","region":"..."} or the bare key',
      // Starts without a key (the function answers 503 not_configured until the operator puts one).
      // A generated value, unlike a literal SecretString, is never rewritten by later deploys.
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ key: '' }),
        generateStringKey: 'placeholder',
        excludePunctuation: true,
        passwordLength: 8,
      },
      // Kept on teardown: it holds the operator's key; redeploy with speechSecretMode=import to reuse it.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The value is an Azure Speech key that Azure issues; Secrets Manager cannot rotate it. Rotate it in ' +
        'the Azure portal and put the new key here (docs/deploy.md, "Deploy"); the function re-reads it within 5 minutes.',
    });
    this.secret = secret;
    this.secretId = secret.secretArn;
  }
}
