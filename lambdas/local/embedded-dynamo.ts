import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { endpointOverride } from '../config';
import { ensureFeedbackTable } from '../store/feedback-table';

export interface EmbeddedDynamo {
  /** `http://127.0.0.1:<port>`, for `DYNAMODB_ENDPOINT`. */
  readonly endpoint: string;
  /** Stops accepting requests, waits for pending writes and closes the database files. */
  close(): Promise<void>;
}

/**
 * Starts dynalite (a DynamoDB-compatible server) on a free loopback port and creates the feedback table if
 * it is missing. With `directory` it persists there (LevelDB), otherwise it lives in memory (tests).
 */
export async function startEmbeddedDynamo(options: {
  readonly directory?: string;
  readonly tableName: string;
}): Promise<EmbeddedDynamo> {
  if (options.directory) await mkdir(options.directory, { recursive: true });
  const server = dynalite({ path: options.directory, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve, reject) => {
      // Idle keep-alive sockets from SDK clients would otherwise hold the close open.
      server.closeIdleConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }));
  const client = new DynamoDBClient({ region: 'us-east-1', ...endpointOverride(endpoint) });
  try {
    await ensureFeedbackTable(client, options.tableName);
  } catch (error) {
    await close();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, close };
}
