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
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { LEDGER_FAILURE_LOG_MESSAGE, SPEND_LIMIT_LOG_MESSAGE } from '../../lambdas/spend/spend-guard';

export interface AlarmsProps {
  readonly api: RestApi;
  readonly functions: Readonly<Record<string, IFunction>>;
  /** Where alarm notifications are mailed; without it they reach the topic only (and the console). */
  readonly email?: string;
  /** The feedback table, the feedback function's log group, and how many items an hour is too many. */
  readonly feedback: { readonly table: ITable; readonly logGroup: ILogGroup; readonly perHour: number };
  /** The log groups of the functions the spend guard runs in (chat, generateImage, speechToken). */
  readonly spendLogGroups: readonly ILogGroup[];
}

/** The metrics the spend guard's log lines are counted into (namespace `Astro`). */
export const SPEND_METRICS = {
  limitReached: 'SpendLimitReached',
  ledgerFailures: 'SpendLedgerFailures',
} as const;

const PERIOD = Duration.minutes(5);

/**
 * The alarms an operator needs: the API's 5xx rate, each function's errors and throttles (a throttle
 * means the reserved-concurrency cost cap was reached), the feedback table being filled (write throttles,
 * or more new items in an hour than a real audience writes), and the spend guard: a spending limit reached
 * (the day's budget, a client's share or a conversation's replies) and the ledger failing. They all notify
 * one topic, which the AWS budget notifies too, and which mails the operator when an address is given.
 */
export class Alarms extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    // SNS topics must be encrypted; CloudWatch and AWS Budgets can publish only with a customer-managed key
    // they may use.
    const key = new Key(this, 'TopicKey', {
      enableKeyRotation: true,
      description: 'Encrypts the Astro alarm topic',
    });
    for (const service of ['cloudwatch.amazonaws.com', 'budgets.amazonaws.com']) {
      key.grant(new ServicePrincipal(service), 'kms:Decrypt', 'kms:GenerateDataKey*');
    }
    this.topic = new Topic(this, 'Topic', {
      masterKey: key,
      enforceSSL: true,
      displayName: 'Astro alarms',
    });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'BudgetsPublish',
        actions: ['sns:Publish'],
        principals: [new ServicePrincipal('budgets.amazonaws.com')],
        resources: [this.topic.topicArn],
      }),
    );
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    const action: IAlarmAction = new SnsAction(this.topic);

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
    this.spendAlarms(props, action);
  }

  /**
   * The spend guard logs a line when a limit sends a request to the free answer, and when the ledger fails
   * (lambdas/spend/spend-guard.ts); a metric filter on each function's log group counts them.
   */
  private spendAlarms(props: AlarmsProps, action: IAlarmAction): void {
    const counted = (message: string, metricName: string): Metric => {
      props.spendLogGroups.forEach(
        (logGroup, index) =>
          new MetricFilter(this, `${metricName}Filter${index}`, {
            logGroup,
            filterPattern: FilterPattern.stringValue('$.message', '=', message),
            metricNamespace: 'Astro',
            metricName,
            metricValue: '1',
          }),
      );
      return new Metric({ namespace: 'Astro', metricName, statistic: 'Sum', period: PERIOD });
    };
    const alarms = [
      {
        id: 'SpendLimitReached',
        metric: counted(SPEND_LIMIT_LOG_MESSAGE, SPEND_METRICS.limitReached),
        alarmDescription:
          'A spending limit was reached (the day’s budget, a client’s share or a conversation’s replies): ' +
          'Astro is answering from its own lessons for some or all learners',
      },
      {
        id: 'SpendLedgerFailures',
        metric: counted(LEDGER_FAILURE_LOG_MESSAGE, SPEND_METRICS.ledgerFailures),
        alarmDescription:
          'The spend ledger could not be read or written: paid calls stop while it cannot be read, and ' +
          'spending goes uncounted while it cannot be written',
      },
    ];
    for (const { id, metric, alarmDescription } of alarms) {
      this.add(
        new Alarm(this, id, {
          alarmDescription,
          metric,
          // The first one in five minutes: each means learners are, or may be, off the paid tutor.
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
        action,
      );
    }
  }

  private feedbackAlarms(props: AlarmsProps, action: IAlarmAction): void {
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

  private add(alarm: Alarm, action: IAlarmAction): void {
    alarm.addAlarmAction(action);
    this.alarms.push(alarm);
  }
}
