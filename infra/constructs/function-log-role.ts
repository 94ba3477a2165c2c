import { RemovalPolicy } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * A Lambda function's own log group (expiring) and a role whose inline policy may write only to it,
 * instead of AWSLambdaBasicExecutionRole (which may write to any log group in the account).
 * Creates `<prefix>Logs` and `<prefix>Role` in `scope`.
 */
export function functionLogRole(
  scope: Construct,
  prefix: string,
  retention: RetentionDays,
): { readonly logGroup: LogGroup; readonly role: Role } {
  const logGroup = new LogGroup(scope, `${prefix}Logs`, { retention, removalPolicy: RemovalPolicy.DESTROY });
  const role = new Role(scope, `${prefix}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    inlinePolicies: {
      Logs: new PolicyDocument({
        statements: [
          new PolicyStatement({
            actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            resources: [logGroup.logGroupArn],
          }),
        ],
      }),
    },
  });
  return { logGroup, role };
}
