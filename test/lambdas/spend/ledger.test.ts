/**
 * The spend ledger (docs/behaviour.md §12.18) with the real DynamoDB client against dynalite: counters per UTC
 * day, per client and per conversation, written atomically by any number of writers at once, kept across a
 * restart of the database, rolled over at midnight UTC (a fixed clock), never holding an address; and a
 * picture ticket spent exactly once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpendLedger, utcDay } from '#lambdas/spend/ledger';
import { startTestLedger, TEST_SPEND_TABLE, type TestLedgerDatabase } from '#support/dynalite';

const NOON = Date.parse('2026-05-04T12:00:00Z');
const signal = () => AbortSignal.timeout(5000);
const A = { client: '192.0.2.10', conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81' };
const B = { client: '2001:db8:1:2::/64', conversationId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' };

describe('the spend ledger (real client, dynalite)', () => {
  let database: TestLedgerDatabase;
  let clock = NOON;
  const ledger = () =>
    new SpendLedger({
      tableName: TEST_SPEND_TABLE,
      region: 'us-east-1',
      endpoint: database.endpoint,
      now: () => clock,
    });

  beforeAll(async () => {
    database = await startTestLedger();
  });
  afterAll(() => database.close());

  it('adds each paid call to the day (by kind), the client and the conversation, with their turns', async () => {
    clock = Date.parse('2026-05-01T09:00:00Z');
    const books = ledger();
    await books.record(A, { kind: 'chat', usd: 0.0123, turn: true }, signal());
    await books.record(A, { kind: 'picture', usd: 0.04 }, signal());
    await books.record({ client: A.client }, { kind: 'speech', usd: 0.17 }, signal());

    expect(await books.read(A, signal())).toEqual({
      dayUsd: 0.2223,
      clientUsd: 0.2223,
      conversationTurns: 1,
    });
    expect(await books.read(B, signal())).toEqual({ dayUsd: 0.2223, clientUsd: 0, conversationTurns: 0 });
    expect(await database.item('day#2026-05-01')).toMatchObject({
      usd: 0.2223,
      chatUsd: 0.0123,
      pictureUsd: 0.04,
      speechUsd: 0.17,
    });
  });

  it('loses nothing to writers at once, from several functions', async () => {
    clock = Date.parse('2026-05-02T10:00:00Z');
    const a = { ...A, conversationId: '11111111-1111-4111-8111-111111111111' };
    const b = { ...B, conversationId: '22222222-2222-4222-8222-222222222222' };
    const functions = [ledger(), ledger(), ledger(), ledger()];
    const writes = Array.from({ length: 60 }, (_, index) =>
      functions[index % functions.length]?.record(
        index % 2 === 0 ? a : b,
        { kind: 'chat', usd: 0.001, turn: true },
        signal(),
      ),
    );

    await Promise.all(writes);

    const [readA, readB] = await Promise.all([ledger().read(a, signal()), ledger().read(b, signal())]);
    expect(readA.dayUsd).toBe(0.06);
    expect(readA).toMatchObject({ clientUsd: 0.03, conversationTurns: 30 });
    expect(readB).toMatchObject({ clientUsd: 0.03, conversationTurns: 30 });
  });

  it('starts a new day at midnight UTC, and keeps the day before as it was', async () => {
    clock = Date.parse('2026-05-03T23:59:59Z');
    await ledger().record(A, { kind: 'chat', usd: 5 }, signal());
    expect((await ledger().read(A, signal())).dayUsd).toBe(5);

    clock = Date.parse('2026-05-04T00:00:01Z');

    expect(await ledger().read(A, signal())).toMatchObject({ dayUsd: 0, clientUsd: 0 });
    expect(await database.item('day#2026-05-03')).toMatchObject({ usd: 5 });
    expect(utcDay(clock)).toBe('2026-05-04');
  });

  it('never stores an address, and gives every item a TTL (the day kept 40 days, the rest 2)', async () => {
    clock = Date.parse('2026-05-05T08:00:00Z');
    await ledger().record(A, { kind: 'chat', usd: 0.5, turn: true }, signal());

    const items = await database.items();
    expect(JSON.stringify(items)).not.toContain(A.client);
    const now = Math.floor(clock / 1000);
    const day = items.find((item) => item.pk === 'day#2026-05-05');
    const client = items.find((item) => String(item.pk).startsWith('client#2026-05-05#'));
    const conversation = items.find((item) => item.pk === `conversation#${A.conversationId}`);
    expect(day?.expiresAt).toBe(now + 40 * 86_400);
    expect(client?.expiresAt).toBe(now + 2 * 86_400);
    expect(typeof conversation?.expiresAt).toBe('number');
    expect(String(client?.pk)).toMatch(/^client#2026-05-05#[0-9a-f]{32}$/);
  });

  it('writes nothing for a call that cost nothing, but still counts its turn', async () => {
    clock = Date.parse('2026-05-06T08:00:00Z');
    const free = { ...B, conversationId: '33333333-3333-4333-8333-333333333333' };
    await ledger().record(free, { kind: 'chat', usd: 0, turn: true }, signal());

    expect(await ledger().read(free, signal())).toEqual({
      dayUsd: 0,
      clientUsd: 0,
      conversationTurns: 1,
    });
    expect(await database.item('day#2026-05-06')).toBeUndefined();
  });

  it('spends a ticket once, whatever the number of requests at once, and again after it is given back', async () => {
    const expiresAt = clock + 600_000;
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        [ledger(), ledger()][index % 2]?.spendTicket('mac-1', expiresAt, signal()),
      ),
    );

    expect(attempts.filter(Boolean)).toHaveLength(1);
    await ledger().releaseTicket('mac-1', signal());
    expect(await ledger().spendTicket('mac-1', expiresAt, signal())).toBe(true);
    expect(await ledger().spendTicket('mac-1', expiresAt, signal())).toBe(false);
  });
});

describe('the spend ledger across a restart of the embedded database', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'astro-ledger-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('remembers the day’s spend after the database closes and opens again', async () => {
    const clock = Date.parse('2026-05-07T15:00:00Z');
    const first = await startTestLedger(directory);
    await new SpendLedger({
      tableName: TEST_SPEND_TABLE,
      region: 'us-east-1',
      endpoint: first.endpoint,
      now: () => clock,
    }).record(A, { kind: 'chat', usd: 1.25, turn: true }, signal());
    await first.close();

    const second = await startTestLedger(directory);
    try {
      const again = new SpendLedger({
        tableName: TEST_SPEND_TABLE,
        region: 'us-east-1',
        endpoint: second.endpoint,
        now: () => clock,
      });
      expect(await again.read(A, signal())).toEqual({ dayUsd: 1.25, clientUsd: 1.25, conversationTurns: 1 });
    } finally {
      await second.close();
    }
  });
});
