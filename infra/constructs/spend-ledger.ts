import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { LEDGER_KEY_ATTRIBUTE, LEDGER_TTL_ATTRIBUTE } from '../../lambdas/spend/ledger';

/**
 * The spend ledger (docs/behaviour.md §12.18): atomic counters per UTC day, per client and day and per
 * conversation, and the picture tickets already spent, in one on-demand table (nothing at rest). Every item
 * expires by TTL (the day totals after 40 days, the rest after 2); it holds no learner data and no address
 * (a client is a hash), so a `cdk destroy` may delete it.
 */
export class SpendLedger extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: LEDGER_KEY_ATTRIBUTE, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      // A few KB of counters: recovery costs next to nothing and lets an operator read back a bad hour.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: RemovalPolicy.DESTROY,
      timeToLiveAttribute: LEDGER_TTL_ATTRIBUTE,
    });
  }
}
