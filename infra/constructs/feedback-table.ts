import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { FEEDBACK_TTL_ATTRIBUTE } from '../../lambdas/store/feedback-store';

/**
 * Learners' feedback, one item per conversation (`conversationId`). On-demand billing costs nothing at
 * rest; point-in-time recovery, deletion protection and RETAIN keep the only data Astro gathers safe
 * from a bad deploy or a `cdk destroy`; a TTL removes each item after the retention period.
 */
export class FeedbackTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'conversationId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
      // The feedback function writes each item's expiry (lambdas/store/feedback-store.ts); DynamoDB
      // deletes expired items at no cost, so the table cannot grow forever.
      timeToLiveAttribute: FEEDBACK_TTL_ATTRIBUTE,
    });
  }
}
