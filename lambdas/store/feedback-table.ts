import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

/**
 * Creates the feedback table if it is missing and waits until it is ACTIVE. Used where nothing else
 * creates it: the local server's embedded dynalite and the tests (CDK owns the deployed table).
 */
export async function ensureFeedbackTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [{ AttributeName: 'conversationId', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'conversationId', KeyType: 'HASH' }],
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
