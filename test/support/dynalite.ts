import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { endpointOverride } from '#lambdas/config';
import { startEmbeddedDynamo } from '#lambdas/local/embedded-dynamo';

export interface TestDynamo {
  /** For `DYNAMODB_ENDPOINT`. */
  readonly endpoint: string;
  readonly tableName: string;
  /** A real client on the same dynalite, for reading back what a handler stored. */
  readonly documents: DynamoDBDocumentClient;
  getItem(conversationId: string): Promise<Record<string, unknown> | undefined>;
  scanAll(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** An in-memory dynalite with the feedback table, on a free loopback port. */
export async function startTestDynamo(tableName = 'astro-feedback-test'): Promise<TestDynamo> {
  const dynamo = await startEmbeddedDynamo({ tableName });
  const client = new DynamoDBClient({ region: 'us-east-1', ...endpointOverride(dynamo.endpoint) });
  const documents = DynamoDBDocumentClient.from(client);
  return {
    endpoint: dynamo.endpoint,
    tableName,
    documents,
    async getItem(conversationId) {
      const { Item } = await documents.send(
        new GetCommand({ TableName: tableName, Key: { conversationId }, ConsistentRead: true }),
      );
      return Item;
    },
    async scanAll() {
      const items: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await documents.send(
          new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    },
    async close() {
      client.destroy();
      await dynamo.close();
    },
  };
}
