import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { ClassicLevel } from 'classic-level';
import { mkdir, open, readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { endpointOverride } from '../config';
import { LEDGER_KEY_ATTRIBUTE } from '../spend/ledger';
import { ensureTable } from '../store/ensure-table';
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

/** How long an empty lock file (a start in progress, before its database opened) counts as held. */
const CLAIM_GRACE_MS = 60_000;

function inUse(directory: string, owner?: number): Error {
  return new Error(
    `${directory} is in use${owner ? ` by process ${owner}` : ' by another process'}. ` +
      'Is `npm start` or `npm run dev` already running?',
  );
}

interface Claim {
  readonly pidFile: string;
  readonly handle: FileHandle;
}

/**
 * A LevelDB directory can be opened by one process only; a second dynalite on it crashes with a raw
 * "Database is not open" error. The lock file is created exclusively (`wx`), so of two processes
 * starting at once exactly one wins; it holds the pid only once the database has opened. A lock left by
 * a process that is gone (or an empty one older than a minute) is stale and taken over.
 */
async function claim(directory: string): Promise<Claim> {
  const pidFile = join(directory, 'astro.pid');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      return { pidFile, handle: await open(pidFile, 'wx', 0o644) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(owner) && owner > 0) {
      if (owner !== process.pid && isRunning(owner)) throw inUse(directory, owner);
    } else {
      const info = await stat(pidFile).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs < CLAIM_GRACE_MS) throw inUse(directory);
    }
    await rm(pidFile, { force: true });
  }
  throw inUse(directory);
}

/**
 * Opens and closes the LevelDB database once before dynalite does, so a database locked by a process
 * that does not use the lock file (an older copy, a stray dynalite) gives a clear message, not a crash.
 */
async function checkDatabaseFree(directory: string): Promise<void> {
  const probe = new ClassicLevel(directory);
  try {
    await probe.open();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') throw inUse(directory);
    throw new Error(`The local database in ${directory} could not be opened: ${(error as Error).message}`);
  }
  await probe.close();
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
 * Starts dynalite (a DynamoDB-compatible server) on a free loopback port and creates the feedback table (and
 * the spend ledger's, when named) if missing. With `directory` it persists there (LevelDB), otherwise it
 * lives in memory (tests).
 */
export async function startEmbeddedDynamo(options: {
  readonly directory?: string;
  readonly tableName: string;
  readonly spendTableName?: string;
}): Promise<EmbeddedDynamo> {
  const directory = options.directory === undefined ? undefined : resolve(options.directory);
  let lock: Claim | undefined;
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
      lock = await claim(directory);
    } catch (error) {
      closed();
      throw error;
    }
    try {
      await checkDatabaseFree(directory);
    } catch (error) {
      await lock.handle.close();
      await rm(lock.pidFile, { force: true });
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
      if (lock) {
        await lock.handle.close().catch(() => undefined);
        await rm(lock.pidFile, { force: true });
      }
      closed();
    }));
  const client = new DynamoDBClient({ region: 'us-east-1', ...endpointOverride(endpoint) });
  try {
    await ensureFeedbackTable(client, options.tableName);
    if (options.spendTableName) await ensureTable(client, options.spendTableName, LEDGER_KEY_ATTRIBUTE);
    // The database is open and usable: only now does the lock name this process.
    if (lock) {
      await lock.handle.writeFile(String(process.pid));
      await lock.handle.close();
    }
  } catch (error) {
    await close();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, close };
}
