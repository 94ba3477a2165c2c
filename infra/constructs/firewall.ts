import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from '../../lambdas/endpoints';

export interface FirewallProps {
  /** Requests to /api/* one IP may make in any 5-minute window. */
  readonly apiRequestsPerIpPer5Minutes: number;
  /** …and to each call, tighter for the ones that cost money upstream. */
  readonly perRoute: Readonly<Record<EndpointName, number>>;
}

/**
 * Path matches see the path as the origin will: percent-decoded and lower-cased, so `/%61pi/chat` or
 * `/API/Chat` cannot slip past a rule (CloudFront and API Gateway decode the path the same way).
 */
const PATH_TRANSFORMATIONS: CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'URL_DECODE' },
  { priority: 1, type: 'LOWERCASE' },
];

function pathStartsWith(prefix: string): CfnWebACL.StatementProperty {
  return {
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      positionalConstraint: 'STARTS_WITH',
      searchString: prefix.toLowerCase(),
      textTransformations: PATH_TRANSFORMATIONS,
    },
  };
}

/** Blocks an IP with 429 `rate_limited` JSON past `limit` requests under `prefix` in any 5 minutes. */
function rateLimitRule(
  name: string,
  priority: number,
  limit: number,
  prefix: string,
  metricName: string,
): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'RateLimited' } } },
    statement: {
      rateBasedStatement: {
        aggregateKeyType: 'IP',
        limit,
        evaluationWindowSec: 300,
        scopeDownStatement: pathStartsWith(prefix),
      },
    },
    visibilityConfig: visibility(metricName),
  };
}

/** AWS's common and known-bad-inputs rule groups, after the rate limits. */
const MANAGED_RULES: readonly CfnWebACL.RuleProperty[] = [
  {
    name: 'AwsCommonRules',
    priority: 20,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name: 'AWSManagedRulesCommonRuleSet',
        // The group blocks bodies over 8 KB; a long conversation's history or feedback is larger, and
        // the functions enforce the contract's own limits (64 KiB, 256 KiB for feedback).
        ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
      },
    },
    visibilityConfig: visibility('astro-common-rules'),
  },
  {
    name: 'AwsKnownBadInputs',
    priority: 21,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesKnownBadInputsRuleSet' },
    },
    visibilityConfig: visibility('astro-known-bad-inputs'),
  },
];

function visibility(metricName: string): CfnWebACL.VisibilityConfigProperty {
  return { cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true };
}

/**
 * The CloudFront web ACL (scope CLOUDFRONT, so it lives in us-east-1): a per-IP rate limit on the API and
 * a tighter one on each call (docs/deploy.md, "What it costs", shows what they allow), and AWS's managed
 * common and known-bad-inputs rule groups.
 */
export class Firewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: FirewallProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('astro-web-acl'),
      customResponseBodies: {
        RateLimited: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({
            error: {
              code: 'rate_limited',
              message: 'Too many requests from your network. Please wait a moment.',
            },
          }),
        },
      },
      rules: [
        // Only the API: a page load fetches several static files that cost next to nothing.
        rateLimitRule(
          'ApiRateLimitPerIp',
          0,
          props.apiRequestsPerIpPer5Minutes,
          '/api/',
          'astro-api-rate-limit',
        ),
        ...ENDPOINT_NAMES.map((route, index) =>
          rateLimitRule(
            `RateLimitPerIp-${route}`,
            10 + index,
            props.perRoute[route],
            ENDPOINTS[route].path,
            `astro-rate-limit-${route.toLowerCase()}`,
          ),
        ),
        ...MANAGED_RULES,
      ],
    });
  }
}
