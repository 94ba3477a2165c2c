import { fileURLToPath } from 'node:url';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2, ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnBucket, IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { EndpointFolder, EndpointFunction } from '../../lambdas/endpoints';
import { functionLogRole } from './function-log-role';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface AstroFunctionProps {
  /** The registry row's function (lambdas/endpoints.ts): its handler folder, memory and timeout. */
  readonly sizing: EndpointFunction & { readonly folder: EndpointFolder };
  readonly logRetention: RetentionDays;
  /** Cost cap; undefined leaves the function on the account's unreserved pool. */
  readonly reservedConcurrency?: number;
  readonly environment?: Record<string, string>;
}

/**
 * One endpoint's Lambda with the defaults every function shares: the newest LTS Node.js runtime, ARM64,
 * an esbuild bundle (minified, with source maps, AWS SDK included so the code runs with the versions it
 * was tested with) built locally, never in Docker, and its own log group with a retention period.
 * The `bind…` helpers set the environment variable a handler reads and grant exactly the access it needs.
 */
export class AstroFunction extends NodejsFunction {
  /** The bundled module, `lambdas/<folder>/handler.ts`, whose `handler` export Lambda invokes. */
  readonly entryFile: string;

  constructor(scope: Construct, id: string, props: AstroFunctionProps) {
    const { logGroup, role } = functionLogRole(scope, id, props.logRetention);
    const entryFile = `${REPO_ROOT}lambdas/${props.sizing.folder}/handler.ts`;
    super(scope, id, {
      role,
      entry: entryFile,
      handler: 'handler',
      projectRoot: REPO_ROOT,
      depsLockFilePath: `${REPO_ROOT}package-lock.json`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.sizing.memoryMb,
      timeout: Duration.seconds(props.sizing.timeoutSeconds),
      reservedConcurrentExecutions: props.reservedConcurrency,
      logGroup,
      // Stack traces in the logs point at the TypeScript sources.
      environment: { LOG_LEVEL: 'info', NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      bundling: {
        forceDockerBundling: false,
        minify: true,
        sourceMap: true,
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        externalModules: [],
        // Some bundled CommonJS dependencies call require() for Node built-ins; ESM has no require.
        banner:
          "import { createRequire as __astroCreateRequire } from 'node:module'; const require = __astroCreateRequire(import.meta.url);",
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir, outputDir) =>
            Object.entries(props.sizing.besideBundle ?? {}).map(
              ([from, to]) => `cp -R "${inputDir}/${from}" "${outputDir}/${to}"`,
            ),
        },
      },
    });
    this.entryFile = entryFile;
  }

  /** FEEDBACK_TABLE, and dynamodb:PutItem on that table only (the handler's conditional put). */
  bindFeedbackTable(table: ITable | ITableV2): void {
    this.addEnvironment('FEEDBACK_TABLE', table.tableName);
    this.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:PutItem'], resources: [table.tableArn] }));
  }

  /**
   * SPEND_TABLE, and on that table only: reading the day's counters (BatchGetItem) and adding to them
   * (UpdateItem); with `tickets`, spending a picture ticket once and giving it back (PutItem, DeleteItem).
   */
  bindSpendLedger(table: ITable | ITableV2, options: { tickets?: boolean } = {}): void {
    this.addEnvironment('SPEND_TABLE', table.tableName);
    const actions = [
      'dynamodb:BatchGetItem',
      'dynamodb:UpdateItem',
      ...(options.tickets ? ['dynamodb:PutItem', 'dynamodb:DeleteItem'] : []),
    ];
    this.addToRolePolicy(new PolicyStatement({ actions, resources: [table.tableArn] }));
  }

  /**
   * SPEECH_SECRET_ID, and secretsmanager:GetSecretValue on that secret only. A secret imported by name
   * has an ARN ending in `-??????` (Secrets Manager's random suffix), which is what its ARN matches.
   */
  bindSpeechSecret(secret: ISecret, secretId: string): void {
    this.bindSecret('SPEECH_SECRET_ID', secret, secretId);
  }

  /** TRUST_SECRET_ID, and secretsmanager:GetSecretValue on the signing key only (chat, generateImage). */
  bindTrustSecret(secret: ISecret): void {
    this.bindSecret('TRUST_SECRET_ID', secret, secret.secretArn);
  }

  private bindSecret(variable: string, secret: ISecret, secretId: string): void {
    this.addEnvironment(variable, secretId);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [secretArnPattern(secret)],
      }),
    );
  }

  /** BEDROCK_GUARDRAIL_ID and _VERSION, and bedrock:ApplyGuardrail on that guardrail only. */
  bindGuardrail(guardrail: { readonly arn: string; readonly id: string; readonly version: string }): void {
    this.addEnvironment('BEDROCK_GUARDRAIL_ID', guardrail.id);
    this.addEnvironment('BEDROCK_GUARDRAIL_VERSION', guardrail.version);
    this.addToRolePolicy(
      new PolicyStatement({ actions: ['bedrock:ApplyGuardrail'], resources: [guardrail.arn] }),
    );
  }

  /**
   * IMAGE_STORE=s3, IMAGE_BUCKET; s3:PutObject and s3:GetObject (what HeadObject needs) under images/
   * only, and s3:ListBucket on the bucket so a picture not drawn yet reads as 404, not 403 (picture
   * dedup, lambdas/pictures/picture-store.ts).
   */
  bindPictureBucket(bucket: IBucket): void {
    this.addEnvironment('IMAGE_STORE', 's3');
    this.addEnvironment('IMAGE_BUCKET', bucket.bucketName);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject'],
        resources: [bucket.arnForObjects('images/*')],
      }),
    );
    // No s3:prefix condition: HeadObject carries no prefix, so a condition would turn every 404 into 403.
    // The bucket holds pictures only; listing their names reveals nothing their URLs do not.
    this.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    const cfnBucket = bucket.node.defaultChild as CfnBucket;
    Validations.of(this.role ?? this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(bucket).getLogicalId(cfnBucket)}.Arn>/images/*]`,
      reason:
        'Each picture is an object images/<hash of its prompt>.png, so its key cannot be known in advance; ' +
        'the grant is PutObject and GetObject (for HeadObject) only, under the images/ prefix only.',
    });
  }

  /**
   * Sets `variable` to the model id and allows bedrock:InvokeModel (which also authorizes Converse) on it,
   * and with `streaming` bedrock:InvokeModelWithResponseStream too (which authorizes ConverseStream).
   * A cross-region inference profile (`us.…`, `eu.…`, `global.…`) needs the profile and the underlying
   * foundation model in every destination region, the latter only when reached through this profile.
   */
  bindBedrockModel(variable: string, modelId: string, options: { streaming?: boolean } = {}): void {
    this.addEnvironment(variable, modelId);
    const actions = [
      'bedrock:InvokeModel',
      ...(options.streaming ? ['bedrock:InvokeModelWithResponseStream'] : []),
    ];
    const stack = Stack.of(this);
    const profile = /^(us|eu|apac|jp|au|ca|us-gov|global)\.(.+)$/.exec(modelId);
    if (!profile?.[2]) {
      this.addToRolePolicy(
        new PolicyStatement({
          actions,
          resources: [`arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${modelId}`],
        }),
      );
      return;
    }
    const profileArn = `arn:${stack.partition}:bedrock:${stack.region}:${stack.account}:inference-profile/${modelId}`;
    this.addToRolePolicy(new PolicyStatement({ actions, resources: [profileArn] }));
    this.addToRolePolicy(
      new PolicyStatement({
        actions,
        resources: [`arn:${stack.partition}:bedrock:*::foundation-model/${profile[2]}`],
        conditions: { StringEquals: { 'bedrock:InferenceProfileArn': profileArn } },
      }),
    );
    Validations.of(this.role ?? this).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${profile[2]}]`,
      reason:
        `The cross-region inference profile ${modelId} routes each call to ${profile[2]} in one of ` +
        'several regions chosen by Bedrock, so the region is a wildcard; the statement is limited to that ' +
        'one model and, by the bedrock:InferenceProfileArn condition, to calls made through this profile.',
    });
  }
}

function secretArnPattern(secret: ISecret): string {
  // fromSecretNameV2 yields a partial ARN without the suffix; a created secret's ARN is complete.
  return secret.secretFullArn ?? `${secret.secretArn}-??????`;
}
