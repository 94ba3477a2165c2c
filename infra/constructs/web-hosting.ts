import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  FunctionEventType,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';
import { RestApiOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket, type CfnBucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { functionLogRole } from './function-log-role';
import { PRIVATE_BUCKET } from './private-bucket';
import { SiteHost } from './site-host';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { IMAGES_PATH_PREFIX } from '../../lambdas/contract/routes';
import {
  contentSecurityPolicy,
  HSTS_MAX_AGE_SECONDS,
  PERMISSIONS_POLICY,
  RESOURCE_CONTENT_SECURITY_POLICY,
} from '../../lambdas/contract/security-headers';

export interface WebHostingProps {
  /** The Vite build (index.html and hashed assets/). */
  readonly webRoot: string;
  readonly api: RestApi;
  /** Headers CloudFront adds to every API request: the origin lock's key (infra/constructs/origin-lock.ts). */
  readonly apiOriginHeaders: Readonly<Record<string, string>>;
  /** The picture bucket, served at `/images/*`. */
  readonly pictureBucket: IBucket;
  readonly accessLogs: IBucket;
  /** Azure region whose speech hosts the Content-Security-Policy allows. */
  readonly speechRegion: string;
  /** WAF web ACL (CLOUDFRONT scope) to attach, if any. */
  readonly webAclArn?: string;
  readonly customDomain?: { readonly domainName: string; readonly certificateArn: string };
  readonly logRetention: RetentionDays;
  readonly priceClass: keyof typeof PRICE_CLASSES;
}

interface HeaderPolicies {
  /** The app's pages: a CSP that allows the configured speech region's hosts. */
  readonly appHeaders: ResponseHeadersPolicy;
  /** API answers and pictures: nothing may run or load from them. */
  readonly resourceHeaders: ResponseHeadersPolicy;
}

const PRICE_CLASSES = {
  '100': PriceClass.PRICE_CLASS_100,
  '200': PriceClass.PRICE_CLASS_200,
  All: PriceClass.PRICE_CLASS_ALL,
} as const;

/**
 * The learner-facing site: one CloudFront distribution in front of the private web bucket (`/*`), the
 * private picture bucket (`/images/*`) and the REST API (`/api/*`), with strict security headers, access
 * logs, and the web build uploaded with the right cache lifetimes.
 */
export class WebHosting extends Construct {
  readonly distribution: Distribution;
  readonly bucket: Bucket;
  readonly siteUrl: string;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 's3/web/',
      // Kept on teardown (emptying it would need CDK's auto-delete function and its AWS-managed policy);
      // it holds only the build, so `aws s3 rb --force` removes it safely.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.distribution = this.createDistribution(props, this.createHeaderPolicies(props));
    this.siteUrl = `https://${props.customDomain?.domainName ?? this.distribution.distributionDomainName}`;
    const deployRole = this.uploadBuild(props);
    this.acknowledge(props, deployRole);
  }

  /** The pages' headers (CSP with the speech hosts) and the headers of API answers and pictures. */
  private createHeaderPolicies(props: WebHostingProps): HeaderPolicies {
    const securityHeaders = (contentSecurityPolicy: string): ResponseSecurityHeadersBehavior => ({
      contentSecurityPolicy: { contentSecurityPolicy, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
        includeSubdomains: true,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: {
        referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
        override: true,
      },
    });
    const permissionsPolicy = {
      customHeaders: [{ header: 'Permissions-Policy', value: PERMISSIONS_POLICY, override: true }],
    };
    const appHeaders = new ResponseHeadersPolicy(this, 'AppHeaders', {
      comment: 'Astro app: strict CSP allowing the Azure speech hosts, HSTS, nosniff, microphone for self',
      securityHeadersBehavior: securityHeaders(contentSecurityPolicy(props.speechRegion)),
      customHeadersBehavior: permissionsPolicy,
    });
    // API JSON and stored pictures are never pages: nothing may run or load from them.
    const resourceHeaders = new ResponseHeadersPolicy(this, 'ResourceHeaders', {
      comment: 'Astro API and pictures: sandboxed, nothing loads; HSTS, nosniff',
      securityHeadersBehavior: securityHeaders(RESOURCE_CONTENT_SECURITY_POLICY),
      customHeadersBehavior: permissionsPolicy,
    });
    return { appHeaders, resourceHeaders };
  }

  /** `/*` from the web bucket, `/images/*` from the picture bucket, `/api/*` from the REST API. */
  private createDistribution(
    props: WebHostingProps,
    { appHeaders, resourceHeaders }: HeaderPolicies,
  ): Distribution {
    const siteHost = new SiteHost(this, 'SiteHost');

    const certificate = props.customDomain
      ? Certificate.fromCertificateArn(this, 'Certificate', props.customDomain.certificateArn)
      : undefined;

    return new Distribution(this, 'Distribution', {
      comment: 'Astro',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PRICE_CLASSES[props.priceClass],
      enableLogging: true,
      logBucket: props.accessLogs,
      logFilePrefix: 'cloudfront/',
      webAclId: props.webAclArn,
      domainNames: props.customDomain ? [props.customDomain.domainName] : undefined,
      certificate,
      // The default *.cloudfront.net certificate's TLS floor is fixed by CloudFront; a custom one gets 1.2.
      minimumProtocolVersion: certificate ? SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: appHeaders,
        compress: true,
      },
      additionalBehaviors: {
        [`${IMAGES_PATH_PREFIX}*`]: {
          origin: S3BucketOrigin.withOriginAccessControl(props.pictureBucket),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: resourceHeaders,
        },
        // The origin path is the stage (`/prod`), so /api/chat here is /prod/api/chat on the REST API.
        '/api/*': {
          origin: new RestApiOrigin(props.api, {
            readTimeout: Duration.seconds(30),
            // Overwrites any header of the same name a viewer sends.
            customHeaders: { ...props.apiOriginHeaders },
          }),
          // Names the viewer's host for the origin rule (lambdas/http/origin.ts).
          functionAssociations: [
            { function: siteHost.function, eventType: FunctionEventType.VIEWER_REQUEST },
          ],
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // API Gateway routes on its own host name, so every viewer header but Host goes through.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: resourceHeaders,
          // Uncached and uncompressed, so a streamed chat reply passes through piece by piece, never held
          // back to be compressed whole (docs/behaviour.md §11.7).
          compress: false,
        },
      },
    });
  }

  /** Uploads the web build: hashed assets first, then the pages, then the CDN's copies are invalidated. */
  private uploadBuild(props: WebHostingProps): Role {
    // The upload runs in CDK's BucketDeployment function; it gets a role and log group of our own so no
    // AWS-managed policy is attached and its logs expire.
    const { logGroup: deployLogs, role: deployRole } = functionLogRole(this, 'Deploy', props.logRetention);
    const deployment = { role: deployRole, logGroup: deployLogs, memoryLimit: 512 };

    // Hashed assets never change under a name: cached for a year, and old ones kept (prune off) so a page
    // loaded before a deploy can still fetch its lazily loaded chunks.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      // Source maps stay out of the public bucket (the build makes them 'hidden': no page points at them).
      sources: [Source.asset(join(props.webRoot, 'assets'), { exclude: ['*.map', '**/*.map'] })],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'assets/',
      cacheControl: [
        CacheControl.setPublic(),
        CacheControl.maxAge(Duration.days(365)),
        CacheControl.immutable(),
      ],
      prune: false,
      ...deployment,
    });
    // index.html and the other unhashed files: revalidated on every load, then the CDN cache is invalidated.
    const pages = new BucketDeployment(this, 'DeployPages', {
      // .vite/ holds the build manifest, which only the build needs.
      sources: [
        Source.asset(props.webRoot, {
          exclude: ['assets', 'assets/**', '.vite', '.vite/**', '*.map', '**/*.map'],
        }),
      ],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      ...deployment,
    });
    // Pages reference assets: upload those first so a new index.html never points at a missing file.
    pages.node.addDependency(assets);
    return deployRole;
  }

  private acknowledge(props: WebHostingProps, deployRole: Role): void {
    const stack = Stack.of(this);
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'Astro is for learners anywhere; no country is excluded.',
    });
    if (!props.customDomain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain CloudFront serves its default *.cloudfront.net certificate, whose TLS ' +
          'policy CloudFront fixes; with domainName and certificateArn set the stack requires TLSv1.2_2021.',
      });
    }
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'WAF was turned off in the CDK context (waf=false), e.g. to deploy outside us-east-1; API Gateway ' +
          'throttling and the functions’ reserved concurrency still bound abuse and cost.',
      });
    }
    // CDK's BucketDeployment: the grants are its own, scoped to the CDK asset bucket and the web bucket.
    const cdkGrant = (finding: string, reason: string) =>
      Validations.of(deployRole).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
    const webBucketArn = `<${stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>`;
    for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
      cdkGrant(
        `Action::${action}`,
        `CDK BucketDeployment's own grant (read the CDK asset bucket, sync the web bucket); ${action} is ` +
          'limited to those two buckets.',
      );
    }
    cdkGrant(
      `Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-${stack.region}/*`,
      'CDK BucketDeployment reads the uploaded build from the CDK bootstrap asset bucket; object keys are ' +
        'content hashes known only at deploy time.',
    );
    cdkGrant(
      `Resource::${webBucketArn}/*`,
      'CDK BucketDeployment syncs the whole web build into the web bucket, so it writes any key there.',
    );
    cdkGrant(
      'Resource::*',
      'CDK BucketDeployment creates the CloudFront invalidation after upload; cloudfront:CreateInvalidation ' +
        'and GetInvalidation are granted on * by CDK.',
    );
    const handler = stack.node.children.find((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (handler) {
      Validations.of(handler).acknowledge({
        id: 'AwsSolutions-L1',
        reason:
          'CDK BucketDeployment’s upload function runs the Python runtime CDK pins for its bundled AWS CLI ' +
          'layer; it runs only during deploys and is updated with aws-cdk-lib.',
      });
    }
  }
}
