import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { EndpointName } from '../lambdas/endpoints';
import type { AstroConfig } from './context';
import { AccessLogs } from './constructs/access-logs';
import { Alarms } from './constructs/alarms';
import { Api } from './constructs/api';
import type { AstroFunction } from './constructs/astro-function';
import { Budget } from './constructs/budget';
import { createEndpointFunctions } from './constructs/endpoint-functions';
import { FeedbackTable } from './constructs/feedback-table';
import { Firewall } from './constructs/firewall';
import { Guardrail } from './constructs/guardrail';
import { ORIGIN_KEY_HEADER, OriginLock } from './constructs/origin-lock';
import { PictureStore } from './constructs/picture-store';
import { SpeechSecret } from './constructs/speech-secret';
import { SpendLedger } from './constructs/spend-ledger';
import { TrustSecret } from './constructs/trust-secret';
import { WebHosting } from './constructs/web-hosting';

export interface AstroStackProps extends StackProps {
  readonly config: AstroConfig;
  /** The Vite build to upload (`dist/web`). */
  readonly webRoot: string;
}

/** Astro on AWS. Composes the constructs; each one owns its concern and its defaults. */
export class AstroStack extends Stack {
  readonly functions: Readonly<Record<EndpointName, AstroFunction>>;
  readonly api: Api;
  readonly web: WebHosting;
  readonly feedback: FeedbackTable;
  /** The spend ledger's table (docs/behaviour.md §12.18). */
  readonly spendLedger: SpendLedger;
  /** The picture bucket, served at /images/* (its construct id stays `Images`: the bucket keeps its name). */
  readonly pictures: PictureStore;
  readonly speechSecret: SpeechSecret;
  readonly trustSecret: TrustSecret;
  readonly guardrail?: Guardrail;
  readonly originLock: OriginLock;
  readonly firewall?: Firewall;
  readonly alarms: Alarms;
  readonly budget: Budget;

  constructor(scope: Construct, id: string, props: AstroStackProps) {
    super(scope, id, props);
    const { config } = props;
    const accessLogs = new AccessLogs(this, 'AccessLogs', { retentionDays: 90 });
    this.feedback = new FeedbackTable(this, 'Feedback');
    this.spendLedger = new SpendLedger(this, 'SpendLedger');
    this.pictures = new PictureStore(this, 'Images', {
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

    // One function per row of the endpoint registry (lambdas/endpoints.ts), each wired to what it needs.
    this.functions = createEndpointFunctions(
      this,
      {
        config,
        trustSecret: this.trustSecret.secret,
        speechSecret: this.speechSecret,
        feedbackTable: this.feedback.table,
        spendTable: this.spendLedger.table,
        pictureBucket: this.pictures.bucket,
        guardrail: this.guardrail,
      },
      config.logRetentionDays,
    );
    this.api = new Api(this, 'Api', {
      stageName: config.stage,
      functions: this.functions,
      throttle: config.throttle,
      logRetention: config.logRetentionDays,
      createAccountLogRole: config.apiGatewayAccountRole,
    });
    this.originLock = new OriginLock(this, 'OriginLock', {
      restApi: this.api.restApi,
      version: config.originKeyVersion,
    });
    this.firewall = config.waf
      ? new Firewall(this, 'Firewall', {
          apiRequestsPerIpPer5Minutes: config.wafRateLimit,
          perRoute: config.wafRateLimits,
        })
      : undefined;
    this.web = this.createWebHosting(config, props.webRoot, accessLogs);
    this.alarms = this.createAlarms(config);
    this.budget = this.createBudget(config);
    this.addOutputs(config);
  }

  /** CloudFront in front of the web build, the pictures and the API, behind the firewall when there is one. */
  private createWebHosting(config: AstroConfig, webRoot: string, accessLogs: AccessLogs): WebHosting {
    return new WebHosting(this, 'Web', {
      webRoot,
      api: this.api.restApi,
      apiOriginHeaders: { [ORIGIN_KEY_HEADER]: this.originLock.headerValue },
      pictureBucket: this.pictures.bucket,
      accessLogs: accessLogs.bucket,
      speechRegion: config.speechRegion,
      logRetention: config.logRetentionDays,
      priceClass: config.priceClass,
      webAclArn: this.firewall?.webAcl.attrArn,
      customDomain:
        config.domainName && config.certificateArn
          ? { domainName: config.domainName, certificateArn: config.certificateArn }
          : undefined,
    });
  }

  private createAlarms(config: AstroConfig): Alarms {
    return new Alarms(this, 'Alarms', {
      api: this.api.restApi,
      functions: this.functions,
      email: config.alarmEmail,
      feedback: {
        table: this.feedback.table,
        logGroup: this.functions.feedback.logGroup,
        perHour: config.feedbackPerHourAlarm,
      },
      // The functions the spend guard runs in (lambdas/spend/spend-guard.ts).
      spendLogGroups: [
        this.functions.chat.logGroup,
        this.functions.generateImage.logGroup,
        this.functions.speechToken.logGroup,
      ],
    });
  }

  /** A cost budget, always: it notifies the alarm topic, and mails budgetEmail (else alarmEmail) if given. */
  private createBudget(config: AstroConfig): Budget {
    return new Budget(this, 'Budget', {
      monthlyLimitUsd: config.monthlyBudgetUsd,
      topic: this.alarms.topic,
      email: config.budgetEmail ?? config.alarmEmail,
    });
  }

  /** What `npm run deploy` prints; each secret's output says where docs/deploy.md explains it. */
  private addOutputs(config: AstroConfig): void {
    new CfnOutput(this, 'SiteUrl', { value: this.web.siteUrl, description: 'Where learners open Astro' });
    new CfnOutput(this, 'ApiUrl', {
      value: `${this.web.siteUrl}/api/`,
      description: 'The API as the app calls it (same origin, through CloudFront)',
    });
    new CfnOutput(this, 'FeedbackTableName', { value: this.feedback.table.tableName });
    new CfnOutput(this, 'SpeechSecretName', {
      value: this.speechSecret.secretName,
      description: 'Put the Azure Speech key here (docs/deploy.md, "Deploy")',
    });
    new CfnOutput(this, 'ImageBucketName', { value: this.pictures.bucket.bucketName });
    new CfnOutput(this, 'SigningKeySecretArn', {
      value: this.trustSecret.secret.secretArn,
      description:
        'The key that signs replies and picture tickets; rotate it here (docs/deploy.md, "Rotating the signing key")',
    });
    new CfnOutput(this, 'OriginKeySecretArn', {
      value: this.originLock.secret.secretArn,
      description:
        'The key CloudFront sends to the API; change it here, then deploy (docs/deploy.md, "Only through CloudFront")',
    });
    if (config.domainName) {
      new CfnOutput(this, 'DnsTarget', {
        value: this.web.distribution.distributionDomainName,
        description: `Point ${config.domainName} here (CNAME, or an alias record in Route 53)`,
      });
    }
  }
}
