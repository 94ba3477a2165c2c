/**
 * The spend ledger (docs/behaviour.md §12.18): what paid calls cost, as atomic counters in DynamoDB, one
 * item per UTC day, per client and day, and per conversation, each with a TTL; and the picture tickets
 * already used (§12.4). Locally the table lives in the embedded database under `.data/`, so the day's
 * spend survives a restart.
 *
 * Keys (partition key `pk`, one table):
 * - `day#<YYYY-MM-DD>`: `usd` in all, and `chatUsd`, `pictureUsd`, `speechUsd`; kept 40 days;
 * - `client#<YYYY-MM-DD>#<hash of the client key>`: that client's `usd` that day; kept 2 days. The address
 *   itself is never stored;
 * - `conversation#<uuid>`: its paid replies (`turns`) and `usd`; kept 2 days;
 * - `ticket#<the ticket's MAC>`: a picture ticket already spent; kept until a day after it expired.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { endpointOverride } from '../config';

/** The table's partition key and TTL attribute (infra/constructs/spend-ledger.ts names the same). */
export const LEDGER_KEY_ATTRIBUTE = 'pk';
export const LEDGER_TTL_ATTRIBUTE = 'expiresAt';

const DAY_S = 86_400;
/** Day totals stay long enough for an operator to read back a month. */
const DAY_ITEM_DAYS = 40;
/** Clients and conversations are needed for their day only (signatures last 24 hours). */
const SHORT_ITEM_DAYS = 2;

/** What a paid call was: the day's total keeps one counter per kind. */
export type SpendKind = 'chat' | 'picture' | 'speech';

/** Who spends: the client key (an address, or an IPv6 /64) and, for chat, the conversation. */
export interface Spender {
  readonly client: string;
  readonly conversationId?: string;
}

/** The counters a paid call is checked against. */
export interface SpendTotals {
  readonly dayUsd: number;
  readonly clientUsd: number;
  readonly conversationTurns: number;
}

/** One paid call to record. */
export interface SpendEntry {
  readonly kind: SpendKind;
  readonly usd: number;
  /** A paid reply in the conversation (the conversation's cap counts these). */
  readonly turn?: boolean;
}

/** The UTC day of an instant, `YYYY-MM-DD`: the day the cap resets at midnight UTC. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The client key as stored: a hash, so the ledger never holds an address. */
function clientHash(client: string): string {
  return createHash('sha256').update(`astro-client-v1\n${client}`).digest('hex').slice(0, 32);
}

/** Amounts in the ledger are kept to the nano-dollar: DynamoDB adds decimals exactly, floats do not. */
const money = (usd: number) => Math.round(usd * 1e9) / 1e9;

const numberOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export interface SpendLedgerOptions {
  readonly tableName: string;
  readonly region: string;
  readonly endpoint?: string;
  readonly now?: () => number;
}

export class SpendLedger {
  private readonly documents: DynamoDBDocumentClient;
  private readonly tableName: string;
  private readonly now: () => number;

  constructor(options: SpendLedgerOptions) {
    // One attempt and a retry: every call already runs under the guard's own deadline.
    const client = new DynamoDBClient({
      region: options.region,
      ...endpointOverride(options.endpoint),
      maxAttempts: 2,
    });
    this.documents = DynamoDBDocumentClient.from(client);
    this.tableName = options.tableName;
    this.now = options.now ?? Date.now;
  }

  private keys(spender: Spender, day = utcDay(this.now())) {
    return {
      day: `day#${day}`,
      client: `client#${day}#${clientHash(spender.client)}`,
      conversation: spender.conversationId
        ? `conversation#${spender.conversationId.toLowerCase()}`
        : undefined,
    };
  }

  private expiresAt(days: number): number {
    return Math.floor(this.now() / 1000) + days * DAY_S;
  }

  /** The counters that apply to `spender` now (consistent reads: the cap sees the latest writes). */
  async read(spender: Spender, signal: AbortSignal): Promise<SpendTotals> {
    const keys = this.keys(spender);
    const wanted = [keys.day, keys.client, ...(keys.conversation ? [keys.conversation] : [])];
    const answer = await this.documents.send(
      new BatchGetCommand({
        RequestItems: {
          [this.tableName]: {
            Keys: wanted.map((pk) => ({ [LEDGER_KEY_ATTRIBUTE]: pk })),
            ConsistentRead: true,
          },
        },
      }),
      { abortSignal: signal },
    );
    if (Object.keys(answer.UnprocessedKeys ?? {}).length > 0) {
      throw new Error('the ledger left keys unread (throttled)');
    }
    const items = new Map(
      (answer.Responses?.[this.tableName] ?? []).map((item) => [item[LEDGER_KEY_ATTRIBUTE] as string, item]),
    );
    return {
      dayUsd: numberOf(items.get(keys.day)?.usd),
      clientUsd: numberOf(items.get(keys.client)?.usd),
      conversationTurns: keys.conversation ? numberOf(items.get(keys.conversation)?.turns) : 0,
    };
  }

  /**
   * Adds one paid call to every counter it belongs to: each an atomic `ADD`, so writers in any number of
   * functions at once never lose one another's amounts. Nothing is written for a call that cost nothing
   * (its turn is still counted).
   */
  async record(spender: Spender, entry: SpendEntry, signal: AbortSignal): Promise<void> {
    const keys = this.keys(spender);
    const usd = money(entry.usd);
    const writes: Promise<unknown>[] = [];
    const add = (pk: string, counters: Record<string, number>, days: number) => {
      const names = Object.keys(counters);
      writes.push(
        this.documents.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { [LEDGER_KEY_ATTRIBUTE]: pk },
            UpdateExpression: `ADD ${names.map((name, index) => `#c${index} :c${index}`).join(', ')} SET #ttl = if_not_exists(#ttl, :ttl)`,
            ExpressionAttributeNames: {
              ...Object.fromEntries(names.map((name, index) => [`#c${index}`, name])),
              '#ttl': LEDGER_TTL_ATTRIBUTE,
            },
            ExpressionAttributeValues: {
              ...Object.fromEntries(names.map((name, index) => [`:c${index}`, counters[name]])),
              ':ttl': this.expiresAt(days),
            },
          }),
          { abortSignal: signal },
        ),
      );
    };
    if (usd > 0) {
      add(keys.day, { usd, [`${entry.kind}Usd`]: usd }, DAY_ITEM_DAYS);
      add(keys.client, { usd }, SHORT_ITEM_DAYS);
    }
    if (keys.conversation && (usd > 0 || entry.turn)) {
      add(keys.conversation, { usd, turns: entry.turn ? 1 : 0 }, SHORT_ITEM_DAYS);
    }
    const results = await Promise.allSettled(writes);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Spends a picture ticket: true for the first caller, false if it was already spent (a conditional put,
   * so of two requests at once in any two functions exactly one wins).
   */
  async spendTicket(ticketId: string, expiresAtMs: number, signal: AbortSignal): Promise<boolean> {
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            [LEDGER_KEY_ATTRIBUTE]: `ticket#${ticketId}`,
            spentAt: new Date(this.now()).toISOString(),
            [LEDGER_TTL_ATTRIBUTE]: Math.floor(expiresAtMs / 1000) + DAY_S,
          },
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': LEDGER_KEY_ATTRIBUTE },
        }),
        { abortSignal: signal },
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Gives a ticket back after a draw that failed, so the learner's retry can draw. */
  async releaseTicket(ticketId: string, signal: AbortSignal): Promise<void> {
    await this.documents.send(
      new DeleteCommand({ TableName: this.tableName, Key: { [LEDGER_KEY_ATTRIBUTE]: `ticket#${ticketId}` } }),
      { abortSignal: signal },
    );
  }
}
