import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { endpointOverride } from '../config';
import { ensureFeedbackTable } from '../store/feedback-table';

export interface EmbeddedDynamo {
  /** `http://127.0.0.1:<port>`, for `DYNAMODB_ENDPOINT`. */
  readonly endpoint: string;
  /** Stops accepting requests, waits for pending writes and closes the database files. */
  close(): Promise<void>;
}

/**
 * Directories open in this process, each with a promise that settles once it is closed again. Kept on
 * globalThis because the Vite dev server re-evaluates this module when it restarts, while the previous
 * instance is still open.
 */
const openHere: Map<string, Promise<void>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('astro.embeddedDynamo.open')
] ??= new Map<string, Promise<void>>()) as Map<string, Promise<void>>;

/** A LevelDB directory can be opened by one process only; a second dynalite on it would crash. */
async function claim(directory: string): Promise<string> {
  const pidFile = join(directory, 'astro.pid');
  const owner = Number(await readFile(pidFile, 'utf8').catch(() => ''));
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
    throw new Error(
      `${directory} is in use by process ${owner}. Is \`npm start\` or \`npm run dev\` already running?`,
    );
  }
  await writeFile(pidFile, String(process.pid));
  return pidFile;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts dynalite (a DynamoDB-compatible server) on a free loopback port and creates the feedback table if
 * it is missing. With `directory` it persists there (LevelDB), otherwise it lives in memory (tests).
 */
export async function startEmbeddedDynamo(options: {
  readonly directory?: string;
  readonly tableName: string;
}): Promise<EmbeddedDynamo> {
  const directory = options.directory === undefined ? undefined : resolve(options.directory);
  let pidFile: string | undefined;
  let closed: () => void = () => {};
  if (directory) {
    await mkdir(directory, { recursive: true });
    // Wait for an instance of this process that is still closing (a dev-server restart).
    while (openHere.has(directory)) await openHere.get(directory);
    openHere.set(
      directory,
      new Promise<void>((done) => {
        closed = () => {
          openHere.delete(directory);
          done();
        };
      }),
    );
    try {
      pidFile = await claim(directory);
    } catch (error) {
      closed();
      throw error;
    }
  }
  const server = dynalite({ path: directory, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolvePromise, reject) => {
      // Idle keep-alive sockets from SDK clients would otherwise hold the close open.
      server.closeIdleConnections();
      server.close((error) => (error ? reject(error) : resolvePromise()));
    }).finally(async () => {
      if (pidFile) await rm(pidFile, { force: true });
      closed();
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
