import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Metric,
  TreatMissingData,
  type IAlarmAction,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface AlarmsProps {
  readonly api: RestApi;
  readonly functions: Readonly<Record<string, IFunction>>;
  /** Where alarm notifications go; without it the alarms show in the CloudWatch console only. */
  readonly email?: string;
  /** The feedback table, the feedback function's log group, and how many items an hour is too many. */
  readonly feedback: { readonly table: ITable; readonly logGroup: ILogGroup; readonly perHour: number };
}

const PERIOD = Duration.minutes(5);

/**
 * The alarms an operator needs: the API's 5xx rate, each function's errors and throttles (a throttle
 * means the reserved-concurrency cost cap was reached), and the feedback table being filled: write
 * throttles, or more new items in an hour than a real audience writes.
 */
export class Alarms extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic?: Topic;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    let action: IAlarmAction | undefined;
    if (props.email) {
      // SNS topics must be encrypted; CloudWatch can publish only with a customer-managed key it may use.
      const key = new Key(this, 'TopicKey', {
        enableKeyRotation: true,
        description: 'Encrypts the Astro alarm topic',
      });
      key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
      this.topic = new Topic(this, 'Topic', {
        masterKey: key,
        enforceSSL: true,
        displayName: 'Astro alarms',
      });
      this.topic.addSubscription(new EmailSubscription(props.email));
      action = new SnsAction(this.topic);
    }

    this.add(
      new Alarm(this, 'Api5xxRate', {
        alarmDescription: 'More than 5% of API requests failed with a 5xx in 5 minutes',
        metric: props.api.metricServerError({ statistic: 'Average', period: PERIOD }),
        threshold: 0.05,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      action,
    );
    for (const [name, fn] of Object.entries(props.functions)) {
      this.add(
        new Alarm(this, `${name}Errors`, {
          alarmDescription: `The ${name} function failed (uncaught error or timeout)`,
          metric: fn.metricErrors({ statistic: 'Sum', period: PERIOD }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
        action,
      );
      this.add(
        new Alarm(this, `${name}Throttles`, {
          alarmDescription: `The ${name} function was throttled (its reserved concurrency is used up)`,
          metric: fn.metricThrottles({ statistic: 'Sum', period: PERIOD }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
        action,
      );
    }
    this.feedbackAlarms(props, action);
  }

  private feedbackAlarms(props: AlarmsProps, action: IAlarmAction | undefined): void {
    const { table, logGroup, perHour } = props.feedback;
    this.add(
      new Alarm(this, 'FeedbackWriteThrottles', {
        alarmDescription: 'DynamoDB throttled writes to the feedback table',
        metric: new Metric({
          namespace: 'AWS/DynamoDB',
          metricName: 'WriteThrottleEvents',
          dimensionsMap: { TableName: table.tableName },
          statistic: 'Sum',
          period: PERIOD,
        }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      action,
    );
    // DynamoDB publishes no item count; the function's one log line per stored feedback (201) counts them.
    const stored = new MetricFilter(this, 'FeedbackStoredFilter', {
      logGroup,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue('$.message', '=', 'request'),
        FilterPattern.numberValue('$.status', '=', 201),
      ),
      metricNamespace: 'Astro',
      metricName: 'FeedbackStored',
      metricValue: '1',
    });
    this.add(
      new Alarm(this, 'FeedbackGrowth', {
        alarmDescription: `More than ${perHour} feedback items were stored in one hour`,
        metric: stored.metric({ statistic: 'Sum', period: Duration.hours(1) }),
        threshold: perHour,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      action,
    );
  }

  private add(alarm: Alarm, action: IAlarmAction | undefined): void {
    if (action) alarm.addAlarmAction(action);
    this.alarms.push(alarm);
  }
}
