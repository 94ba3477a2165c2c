import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import { Construct } from 'constructs';

export interface BudgetProps {
  readonly monthlyLimitUsd: number;
  readonly email: string;
}

/**
 * An AWS Budgets cost budget with e-mail alerts: at 80% of the month's limit spent, and when the
 * forecast passes 100%. It covers the account's cost (AWS advises one account per workload, which makes
 * it Astro's cost); Azure Speech bills outside AWS and is bounded by the speech-token limits instead.
 */
export class Budget extends Construct {
  readonly budget: CfnBudget;

  constructor(scope: Construct, id: string, props: BudgetProps) {
    super(scope, id);
    const subscribers = [{ subscriptionType: 'EMAIL', address: props.email }];
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
