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

/** The spend ledger's table in tests. */
export const TEST_SPEND_TABLE = 'astro-spend-test';

export interface TestLedgerDatabase {
  /** For `DYNAMODB_ENDPOINT`. */
  readonly endpoint: string;
  /** `SPEND_TABLE` and `DYNAMODB_ENDPOINT`, for a handler's environment. */
  readonly env: { readonly SPEND_TABLE: string; readonly DYNAMODB_ENDPOINT: string };
  /** Every ledger item, read back with a real client. */
  items(): Promise<Record<string, unknown>[]>;
  item(pk: string): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

/**
 * A dynalite with the spend ledger's table, in memory or persisted under `directory` (a restart is a
 * close and a start on the same directory).
 */
export async function startTestLedger(directory?: string): Promise<TestLedgerDatabase> {
  const dynamo = await startEmbeddedDynamo({
    directory,
    tableName: 'astro-feedback-test',
    spendTableName: TEST_SPEND_TABLE,
  });
  const client = new DynamoDBClient({ region: 'us-east-1', ...endpointOverride(dynamo.endpoint) });
  const documents = DynamoDBDocumentClient.from(client);
  return {
    endpoint: dynamo.endpoint,
    env: { SPEND_TABLE: TEST_SPEND_TABLE, DYNAMODB_ENDPOINT: dynamo.endpoint },
    async items() {
      const { Items } = await documents.send(
        new ScanCommand({ TableName: TEST_SPEND_TABLE, ConsistentRead: true }),
      );
      return Items ?? [];
    },
    async item(pk) {
      const { Item } = await documents.send(
        new GetCommand({ TableName: TEST_SPEND_TABLE, Key: { pk }, ConsistentRead: true }),
      );
      return Item;
    },
    async close() {
      client.destroy();
      await dynamo.close();
    },
  };
}
