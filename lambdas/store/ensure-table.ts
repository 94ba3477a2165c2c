import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

/**
 * Creates a table keyed by one string attribute if it is missing, and waits until it is ACTIVE. Used where
 * nothing else creates the tables: the local server's embedded dynalite and the tests (CDK owns the
 * deployed ones).
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  keyAttribute: string,
): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ AttributeName: keyAttribute, AttributeType: 'S' }],
        KeySchema: [{ AttributeName: keyAttribute, KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (Table?.TableStatus === 'ACTIVE') return;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Table ${tableName} did not become ACTIVE`);
}
