import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteName } from '../lambdas/contract/routes';
import type { AstroConfig } from './context';
import { AccessLogs } from './constructs/access-logs';
import { Alarms } from './constructs/alarms';
import { Api } from './constructs/api';
import { AstroFunction } from './constructs/astro-function';
import { Budget } from './constructs/budget';
import { FeedbackTable } from './constructs/feedback-table';
import { Firewall } from './constructs/firewall';
import { Guardrail } from './constructs/guardrail';
import { ImageStore } from './constructs/image-store';
import { ORIGIN_KEY_HEADER, OriginLock } from './constructs/origin-lock';
import { SITE_HOST_HEADER } from './constructs/site-host';
import { SpeechSecret } from './constructs/speech-secret';
import { TrustSecret } from './constructs/trust-secret';
import { WebHosting } from './constructs/web-hosting';

export interface AstroStackProps extends StackProps {
  readonly config: AstroConfig;
  /** The Vite build to upload (`dist/web`). */
  readonly webRoot: string;
}

/** Astro on AWS. Composes the constructs; each one owns its concern and its defaults. */
export class AstroStack extends Stack {
  readonly functions: Readonly<Record<RouteName, AstroFunction>>;
  readonly api: Api;
  readonly web: WebHosting;
  readonly feedback: FeedbackTable;
  readonly images: ImageStore;
  readonly speechSecret: SpeechSecret;
  readonly trustSecret: TrustSecret;
  readonly guardrail?: Guardrail;
  readonly originLock: OriginLock;
  readonly firewall?: Firewall;
  readonly alarms: Alarms;
  readonly budget?: Budget;

  constructor(scope: Construct, id: string, props: AstroStackProps) {
    super(scope, id, props);
    const { config } = props;
    const concurrency = config.reservedConcurrency === false ? undefined : config.reservedConcurrency;
    const logRetention = config.logRetentionDays;

    const accessLogs = new AccessLogs(this, 'AccessLogs', { retentionDays: 90 });
    this.feedback = new FeedbackTable(this, 'Feedback');
    this.images = new ImageStore(this, 'Images', {
      expirationDays: config.imageExpirationDays,
      accessLogs: accessLogs.bucket,
    });
    this.speechSecret = new SpeechSecret(this, 'SpeechSecret', {
      secretName: config.speechSecretName,
      mode: config.speechSecretMode,
    });
    this.trustSecret = new TrustSecret(this, 'TrustSecret');
    this.guardrail = config.guardrail
      ? new Guardrail(this, 'Guardrail', { name: `${this.stackName}-tutor` })
      : undefined;

    // API Gateway gives up after 29 s, so the functions answer (504 upstream_timeout) before that.
    const chat = new AstroFunction(this, 'ChatFunction', {
      entryFolder: 'chat',
      memorySize: 512,
      timeout: Duration.seconds(28),
      logRetention,
      reservedConcurrency: concurrency?.chat,
      environment: { ASTRO_MODEL: 'bedrock', MODEL_TIMEOUT_MS: '20000' },
      // The lessons ground the model's replies, one language at a time (docs/behaviour.md §17.6), and
      // are the offline tutor's data: files beside the bundle (lambdas/tutor/offline/knowledge-files.ts).
      besideBundle: { 'lambdas/tutor/offline/knowledge': 'knowledge' },
    });
    // The reply streams (ConverseStream) when the web app asks for it (docs/behaviour.md §11.7).
    chat.bindBedrockModel('BEDROCK_MODEL_ID', config.chatModelId, { streaming: true });
    chat.bindTrustSecret(this.trustSecret.secret);
    if (this.guardrail) {
      chat.bindGuardrail({
        arn: this.guardrail.guardrail.attrGuardrailArn,
        id: this.guardrail.guardrail.attrGuardrailId,
        version: this.guardrail.version.attrVersion,
      });
    }

    const generateImage = new AstroFunction(this, 'GenerateImageFunction', {
      entryFolder: 'generate-image',
      memorySize: 512,
      timeout: Duration.seconds(28),
      logRetention,
      reservedConcurrency: concurrency?.generateImage,
      environment: { ASTRO_IMAGE_MODEL: 'bedrock', IMAGE_TIMEOUT_MS: '25000' },
    });
    generateImage.bindBedrockModel('BEDROCK_IMAGE_MODEL_ID', config.imageModelId);
    generateImage.bindImageBucket(this.images.bucket);
    generateImage.bindTrustSecret(this.trustSecret.secret);

    const feedback = new AstroFunction(this, 'FeedbackFunction', {
      entryFolder: 'feedback',
      memorySize: 256,
      timeout: Duration.seconds(10),
      logRetention,
      reservedConcurrency: concurrency?.feedback,
    });
    feedback.bindFeedbackTable(this.feedback.table);

    const speechToken = new AstroFunction(this, 'SpeechTokenFunction', {
      entryFolder: 'speech-token',
      memorySize: 256,
      timeout: Duration.seconds(10),
      logRetention,
      reservedConcurrency: concurrency?.speechToken,
      environment: { AZURE_SPEECH_REGION: config.speechRegion },
    });
    speechToken.bindSpeechSecret(this.speechSecret.secret, this.speechSecret.secretId);

    this.functions = { chat, generateImage, feedback, speechToken };
    // The origin rule (lambdas/http/origin.ts): CloudFront names the viewer's host; a custom domain is ours.
    for (const fn of Object.values(this.functions)) {
      fn.addEnvironment('SITE_HOST_HEADER', SITE_HOST_HEADER);
      if (config.domainName) fn.addEnvironment('SITE_ORIGINS', `https://${config.domainName}`);
    }
    feedback.addEnvironment('FEEDBACK_RETENTION_DAYS', String(config.feedbackRetentionDays));

    this.api = new Api(this, 'Api', {
      stageName: config.stage,
      functions: this.functions,
      throttle: config.throttle,
      logRetention,
      createAccountLogRole: config.apiGatewayAccountRole,
    });
    this.originLock = new OriginLock(this, 'OriginLock', { restApi: this.api.restApi });

    this.firewall = config.waf
      ? new Firewall(this, 'Firewall', {
          apiRequestsPerIpPer5Minutes: config.wafRateLimit,
          perRoute: config.wafRateLimits,
        })
      : undefined;

    this.web = new WebHosting(this, 'Web', {
      webRoot: props.webRoot,
      api: this.api.restApi,
      apiOriginHeaders: { [ORIGIN_KEY_HEADER]: this.originLock.headerValue },
      imageBucket: this.images.bucket,
      accessLogs: accessLogs.bucket,
      speechRegion: config.speechRegion,
      logRetention,
      priceClass: config.priceClass,
      webAclArn: this.firewall?.webAcl.attrArn,
      customDomain:
        config.domainName && config.certificateArn
          ? { domainName: config.domainName, certificateArn: config.certificateArn }
          : undefined,
    });

    this.alarms = new Alarms(this, 'Alarms', {
      api: this.api.restApi,
      functions: this.functions,
      email: config.alarmEmail,
      feedback: {
        table: this.feedback.table,
        logGroup: feedback.logGroup,
        perHour: config.feedbackPerHourAlarm,
      },
    });

    const budgetEmail = config.budgetEmail ?? config.alarmEmail;
    this.budget = budgetEmail
      ? new Budget(this, 'Budget', { monthlyLimitUsd: config.monthlyBudgetUsd, email: budgetEmail })
      : undefined;

    new CfnOutput(this, 'SiteUrl', { value: this.web.siteUrl, description: 'Where learners open Astro' });
    new CfnOutput(this, 'ApiUrl', {
      value: `${this.web.siteUrl}/api/`,
      description: 'The API as the app calls it (same origin, through CloudFront)',
    });
    new CfnOutput(this, 'FeedbackTableName', { value: this.feedback.table.tableName });
    new CfnOutput(this, 'SpeechSecretName', {
      value: this.speechSecret.secretName,
      description: 'Put the Azure Speech key here (README, Deploy)',
    });
    new CfnOutput(this, 'ImageBucketName', { value: this.images.bucket.bucketName });
    new CfnOutput(this, 'SigningKeySecretArn', {
      value: this.trustSecret.secret.secretArn,
      description: 'The key that signs replies and picture tickets; rotate it here (README, Deploy)',
    });
    new CfnOutput(this, 'OriginKeySecretArn', {
      value: this.originLock.secret.secretArn,
      description: 'The key CloudFront sends to the API; change it here, then deploy (README, Deploy)',
    });
    if (config.domainName) {
      new CfnOutput(this, 'DnsTarget', {
        value: this.web.distribution.distributionDomainName,
        description: `Point ${config.domainName} here (CNAME, or an alias record in Route 53)`,
      });
    }
  }
}
