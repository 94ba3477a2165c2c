import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteName } from '../lambdas/contract/routes';
import type { AstroConfig } from './context';
import { AccessLogs } from './constructs/access-logs';
import { Alarms } from './constructs/alarms';
import { Api } from './constructs/api';
import { AstroFunction } from './constructs/astro-function';
import { FeedbackTable } from './constructs/feedback-table';
import { Firewall } from './constructs/firewall';
import { ImageStore } from './constructs/image-store';
import { SpeechSecret } from './constructs/speech-secret';
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
  readonly firewall?: Firewall;
  readonly alarms: Alarms;

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

    // API Gateway gives up after 29 s, so the functions answer (504 upstream_timeout) before that.
    const chat = new AstroFunction(this, 'ChatFunction', {
      entryFolder: 'chat',
      memorySize: 512,
      timeout: Duration.seconds(28),
      logRetention,
      reservedConcurrency: concurrency?.chat,
      environment: { ASTRO_MODEL: 'bedrock', MODEL_TIMEOUT_MS: '20000' },
    });
    // The reply streams (ConverseStream) when the web app asks for it (DESIGN §2 "Streamed chat").
    chat.bindBedrockModel('BEDROCK_MODEL_ID', config.chatModelId, { streaming: true });

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

    this.api = new Api(this, 'Api', {
      stageName: config.stage,
      functions: this.functions,
      throttle: config.throttle,
      logRetention,
      createAccountLogRole: config.apiGatewayAccountRole,
    });

    this.firewall = config.waf
      ? new Firewall(this, 'Firewall', { apiRequestsPerIpPer5Minutes: config.wafRateLimit })
      : undefined;

    this.web = new WebHosting(this, 'Web', {
      webRoot: props.webRoot,
      api: this.api.restApi,
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
    });

    new CfnOutput(this, 'SiteUrl', { value: this.web.siteUrl, description: 'Where learners open Astro' });
    new CfnOutput(this, 'ApiUrl', {
      value: `${this.web.siteUrl}/api/`,
      description: 'The API as the app calls it (same origin, through CloudFront)',
    });
    new CfnOutput(this, 'RestApiUrl', {
      value: this.api.restApi.url,
      description: 'The REST API stage itself, for diagnostics',
    });
    new CfnOutput(this, 'FeedbackTableName', { value: this.feedback.table.tableName });
    new CfnOutput(this, 'SpeechSecretName', {
      value: this.speechSecret.secretName,
      description: 'Put the Azure Speech key here (README, Deploy)',
    });
    new CfnOutput(this, 'ImageBucketName', { value: this.images.bucket.bucketName });
    if (config.domainName) {
      new CfnOutput(this, 'DnsTarget', {
        value: this.web.distribution.distributionDomainName,
        description: `Point ${config.domainName} here (CNAME, or an alias record in Route 53)`,
      });
    }
  }
}
