import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

export interface BudgetProps {
  readonly monthlyLimitUsd: number;
  /** The alarm topic: every alert goes there (and from it to whoever subscribed). */
  readonly topic: ITopic;
  /** Mailed directly too, when given (AWS Budgets' own mail, which needs no subscription to confirm). */
  readonly email?: string;
}

/**
 * An AWS Budgets cost budget, always: alerts at 80% of the month's limit spent and when the forecast passes
 * 100%, to the alarm topic and the budget e-mail. It reports the account's cost (AWS advises one account
 * per workload, which makes it Astro's cost); the spend ledger and its daily cap are what enforce
 * (docs/behaviour.md §12.19). Azure Speech bills outside AWS.
 */
export class Budget extends Construct {
  readonly budget: CfnBudget;

  constructor(scope: Construct, id: string, props: BudgetProps) {
    super(scope, id);
    const subscribers = [
      { subscriptionType: 'SNS', address: props.topic.topicArn },
      ...(props.email ? [{ subscriptionType: 'EMAIL', address: props.email }] : []),
    ];
    this.budget = new CfnBudget(this, 'Budget', {
      budget: {
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: props.monthlyLimitUsd, unit: 'USD' },
      },
      notificationsWithSubscribers: [
        {
          notification: {
            notificationType: 'ACTUAL',
            comparisonOperator: 'GREATER_THAN',
            threshold: 80,
            thresholdType: 'PERCENTAGE',
          },
          subscribers,
        },
        {
          notification: {
            notificationType: 'FORECASTED',
            comparisonOperator: 'GREATER_THAN',
            threshold: 100,
            thresholdType: 'PERCENTAGE',
          },
          subscribers,
        },
      ],
    });
  }
}
