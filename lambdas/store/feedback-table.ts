import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable } from './ensure-table';

/**
 * Creates the feedback table if it is missing and waits until it is ACTIVE. Used where nothing else
 * creates it: the local server's embedded dynalite and the tests (CDK owns the deployed table).
 */
export function ensureFeedbackTable(client: DynamoDBClient, tableName: string): Promise<void> {
  return ensureTable(client, tableName, 'conversationId');
}
