import { RemovalPolicy, SecretValue, Validations } from 'aws-cdk-lib';
import { ApiKey, ResponseType, UsagePlan, type CfnMethod, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

export interface OriginLockProps {
  readonly restApi: RestApi;
  /**
   * The secret's version both sides read (CDK context `originKeyVersion`). CloudFormation resolves a dynamic
   * reference only when the resource holding it changes, so a new value in the secret reaches neither side
   * on its own, and a later change to only one side would leave the two with different keys. Naming the
   * version changes the reference in both at once, so they always read the same value.
   */
  readonly version?: string;
}

/** The header CloudFront adds to every API request, and API Gateway requires. */
export const ORIGIN_KEY_HEADER = 'x-api-key';

/**
 * Only CloudFront may call the REST API, so nothing skips the WAF's per-IP limits and rule groups. A
 * REST API cannot check an arbitrary header before invoking a function, but it checks its own API keys
 * before any work: every method requires one, and the one key exists only in a Secrets Manager secret
 * (generated at deploy time, never in the template) that CloudFront sends as an origin header. A direct
 * call to the `execute-api` URL gets 403 `forbidden` without invoking anything; that URL is no longer
 * a stack output.
 */
export class OriginLock extends Construct {
  /** A dynamic reference to the key (`{{resolve:secretsmanager:…}}`): resolved by CloudFormation only. */
  readonly headerValue: string;
  readonly secret: Secret;

  constructor(scope: Construct, id: string, props: OriginLockProps) {
    super(scope, id);
    const { restApi } = props;
    this.secret = new Secret(this, 'Secret', {
      description: 'Astro: the API key CloudFront sends to the REST API; direct calls without it get 403',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The value is used by CloudFront and API Gateway only, both through one CloudFormation dynamic reference; ' +
        'rotating it means a new secret version named in context and a deploy that changes both sides together ' +
        '(docs/deploy.md, "Only through CloudFront"), which a rotation Lambda cannot do.',
    });
    // One reference, used by both sides: the API key's value and CloudFront's origin header.
    this.headerValue = SecretValue.secretsManager(this.secret.secretArn, {
      ...(props.version ? { versionId: props.version } : {}),
    }).unsafeUnwrap();

    const key = new ApiKey(this, 'Key', {
      description: 'Sent by CloudFront only (origin custom header)',
      value: this.headerValue,
    });
    const plan = new UsagePlan(this, 'Plan', {
      description: 'CloudFront to the Astro API: throttling stays on the stage and methods',
      apiStages: [{ api: restApi, stage: restApi.deploymentStage }],
    });
    plan.addApiKey(key);

    for (const method of restApi.methods) {
      (method.node.defaultChild as CfnMethod).apiKeyRequired = true;
    }
    // The methods changed after the deployment's name was computed: a new name makes CloudFormation
    // deploy the stage again, so the key is required from this deploy on.
    restApi.latestDeployment?.addToLogicalId({ apiKeyRequired: ORIGIN_KEY_HEADER });

    // A wrong key is INVALID_API_KEY; a missing one is refused as ACCESS_DENIED. Both: 403 `forbidden`.
    for (const type of [ResponseType.INVALID_API_KEY, ResponseType.ACCESS_DENIED]) {
      restApi.addGatewayResponse(`${type.responseType}Response`, {
        type,
        statusCode: '403',
        templates: {
          'application/json': JSON.stringify({
            error: { code: 'forbidden', message: 'Call the API through the Astro site.' },
          }),
        },
      });
    }
    // RestApi always outputs its execute-api URL; that URL is exactly what must not be advertised.
    restApi.node.tryRemoveChild('Endpoint');
  }
}
