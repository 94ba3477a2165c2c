import { RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  CfnAccount,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Model,
  RequestValidator,
  ResponseTransferMode,
  ResponseType,
  RestApi,
  type IResource,
  type MethodDeploymentOptions,
} from 'aws-cdk-lib/aws-apigateway';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { ErrorCode } from '../../lambdas/contract/errors';
import { ENDPOINT_NAMES, ENDPOINTS, perEndpoint, type EndpointName } from '../../lambdas/endpoints';
import { apiGatewaySchema } from './request-models';

export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

export interface ApiProps {
  readonly stageName: string;
  readonly functions: Readonly<Record<EndpointName, IFunction>>;
  /** Stage-wide limits, and tighter ones per call (defaults: the registry's, lambdas/endpoints.ts). */
  readonly throttle: Throttle & Readonly<Record<EndpointName, Throttle>>;
  readonly logRetention: RetentionDays;
  /** Create the region's API Gateway CloudWatch role (account-wide) so the stage can write its logs. */
  readonly createAccountLogRole: boolean;
}

/** One JSON line per request; the validator's detailed message goes here, not to the client. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    ip: AccessLogField.contextIdentitySourceIp(),
    time: AccessLogField.contextRequestTime(),
    method: AccessLogField.contextHttpMethod(),
    path: AccessLogField.contextResourcePath(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    latencyMs: AccessLogField.contextResponseLatency(),
    integrationLatencyMs: AccessLogField.contextIntegrationLatency(),
    errorType: AccessLogField.contextErrorResponseType(),
    validationError: AccessLogField.contextErrorValidationErrorString(),
  }),
);

/**
 * Errors API Gateway answers itself, in the API's own error shape (docs/behaviour.md §8.3) so the web app
 * reads one format. Messages are fixed text: gateway templates cannot escape variables into JSON safely. The
 * validator's detailed message goes to the access log instead.
 */
const GATEWAY_ERRORS: readonly { type: ResponseType; status: string; code: ErrorCode; message: string }[] = [
  {
    type: ResponseType.BAD_REQUEST_BODY,
    status: '400',
    code: 'invalid_request',
    message: 'The request body does not match the API contract.',
  },
  {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: '404',
    code: 'not_found',
    message: 'No such API call. Every call is a POST to /api/<name>.',
  },
  {
    type: ResponseType.THROTTLED,
    status: '429',
    code: 'rate_limited',
    message: 'Too many requests right now. Please try again in a moment.',
  },
  {
    type: ResponseType.QUOTA_EXCEEDED,
    status: '429',
    code: 'rate_limited',
    message: 'Too many requests right now. Please try again later.',
  },
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    status: '413',
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  {
    type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
    status: '415',
    code: 'unsupported_media_type',
    message: 'Send the request body as application/json.',
  },
  {
    type: ResponseType.INTEGRATION_TIMEOUT,
    status: '504',
    code: 'upstream_timeout',
    message: 'The server took too long to answer. Please try again.',
  },
  {
    type: ResponseType.DEFAULT_4XX,
    status: '400',
    code: 'invalid_request',
    message: 'The request was not accepted.',
  },
  {
    type: ResponseType.DEFAULT_5XX,
    status: '500',
    code: 'internal_error',
    message: 'Something went wrong on the server. Please try again.',
  },
];

/**
 * The regional REST API: a POST-only resource per row of the endpoint registry (lambdas/endpoints.ts),
 * its body validated against the row's schema, per-method throttling, JSON access logs and detailed
 * metrics. A row that streams (chat) gets response transfer mode STREAM.
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  readonly accessLogs: LogGroup;
  /** Errors only (MethodLoggingLevel.ERROR), never request bodies. */
  readonly executionLogs: LogGroup;
  /** Method ids, as `/api/chat/POST`, for alarms and tests. */
  readonly methodPaths: Readonly<Record<EndpointName, string>>;
  /** The account-wide API Gateway log role, when this stack sets it. */
  readonly accountLogRole: Role | undefined;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.methodPaths = perEndpoint((endpoint) => `${endpoint.path}/POST`);
    this.restApi = this.createRestApi(props);
    this.accountLogRole = props.createAccountLogRole ? this.setAccountLogRole() : undefined;
    // API Gateway would create this group itself, kept forever; created here it has the same retention.
    this.executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${props.stageName}`,
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.restApi.deploymentStage.node.addDependency(this.executionLogs);
    this.addEndpoints(props.functions);
    this.addGatewayErrors();
    this.acknowledge();
  }

  /** The API and its stage: throttled overall and per method, errors-only execution logs, JSON access logs. */
  private createRestApi(props: ApiProps): RestApi {
    const methodOptions = Object.fromEntries(
      ENDPOINT_NAMES.map((name): [string, MethodDeploymentOptions] => [
        this.methodPaths[name],
        {
          throttlingRateLimit: props.throttle[name].rateLimit,
          throttlingBurstLimit: props.throttle[name].burstLimit,
        },
      ]),
    );
    return new RestApi(this, 'RestApi', {
      restApiName: `${Stack.of(this).stackName}-api`,
      description: `Astro: ${ENDPOINT_NAMES.slice(0, -1).join(', ')} and ${ENDPOINT_NAMES.at(-1)}`,
      endpointTypes: [EndpointType.REGIONAL],
      cloudWatchRole: false,
      deployOptions: {
        stageName: props.stageName,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
        metricsEnabled: true,
        // Errors only, and never request bodies: they hold learners' words.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        methodOptions,
      },
    });
  }

  /**
   * One POST method per registry row, on its function. A row with a body gets a request model generated
   * from its schema; one whose body may be empty (speechToken) gets none, since an empty body would
   * otherwise be checked against `type: object`. A streaming row is invoked with InvokeWithResponseStream
   * and each piece passed on as it comes (docs/behaviour.md §11.7).
   */
  private addEndpoints(functions: Readonly<Record<EndpointName, IFunction>>): void {
    const validator = new RequestValidator(this, 'BodyValidator', {
      restApi: this.restApi,
      requestValidatorName: 'body-against-contract',
      validateRequestBody: true,
      // No method declares required parameters, so this checks nothing today; it keeps any added later honest.
      validateRequestParameters: true,
    });
    for (const name of ENDPOINT_NAMES) {
      const endpoint = ENDPOINTS[name];
      const model = endpoint.request.allowEmptyBody
        ? undefined
        : new Model(this, `${name}Model`, {
            restApi: this.restApi,
            modelName: `${name}Request`,
            contentType: 'application/json',
            description: `POST ${endpoint.path} body, generated from the contract`,
            schema: apiGatewaySchema(endpoint.request.schema),
          });
      const integration = new LambdaIntegration(functions[name], {
        allowTestInvoke: false,
        ...(endpoint.function.streaming ? { responseTransferMode: ResponseTransferMode.STREAM } : {}),
      });
      this.resourceFor(endpoint.path).addMethod('POST', integration, {
        operationName: name,
        ...(model ? { requestValidator: validator, requestModels: { 'application/json': model } } : {}),
      });
    }
  }

  private addGatewayErrors(): void {
    for (const error of GATEWAY_ERRORS) {
      this.restApi.addGatewayResponse(`${error.type.responseType}Response`, {
        type: error.type,
        statusCode: error.status,
        templates: {
          'application/json': JSON.stringify({ error: { code: error.code, message: error.message } }),
        },
      });
    }
  }

  private acknowledge(): void {
    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'Astro is anonymous (docs/behaviour.md §6.1: no roles, no login); throttling and WAF bound abuse.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'Astro is anonymous (docs/behaviour.md §6.1: no roles, no login): there is no Cognito user pool.',
      },
      {
        id: 'AwsSolutions-APIG3',
        reason:
          'The web ACL is attached to the CloudFront distribution in front of this API (when waf is on); ' +
          'a second regional ACL would bill twice for the same requests.',
      },
    );
  }

  private resourceFor(path: string): IResource {
    return path
      .split('/')
      .filter(Boolean)
      .reduce<IResource>(
        (parent, segment) => parent.getResource(segment) ?? parent.addResource(segment),
        this.restApi.root,
      );
  }

  /**
   * API Gateway writes access and execution logs through one role per account and region. This role has
   * an inline policy equivalent to AmazonAPIGatewayPushToCloudWatchLogs, limited to this region's log
   * groups, and is kept on teardown so other APIs in the account keep logging.
   */
  private setAccountLogRole(): Role {
    const stack = Stack.of(this);
    const role = new Role(this, 'CloudWatchRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: 'Lets API Gateway write access and execution logs (account-wide setting)',
      inlinePolicies: {
        PushLogs: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: [
                'logs:CreateLogGroup',
                'logs:CreateLogStream',
                'logs:DescribeLogGroups',
                'logs:DescribeLogStreams',
                'logs:PutLogEvents',
                'logs:GetLogEvents',
                'logs:FilterLogEvents',
              ],
              resources: [`arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:*`],
            }),
          ],
        }),
      },
    });
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:${stack.region}:<AWS::AccountId>:log-group:*]`,
      reason:
        'This is the account-wide API Gateway logging role: API Gateway uses it for every REST API in the ' +
        'region and creates execution log groups named after each API id, so it is limited to the log groups ' +
        'of this account and region rather than to one group.',
    });
    const account = new CfnAccount(this, 'Account', { cloudWatchRoleArn: role.roleArn });
    this.restApi.deploymentStage.node.addDependency(account);
    return role;
  }
}
