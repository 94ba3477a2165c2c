/**
 * The spend guard (docs/behaviour.md §12.18–§12.20): which limit a request has reached, a ledger that cannot
 * be read counting as reached (within its deadline), and writes that fail without failing anyone.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readSpendConfig, type Env } from '#lambdas/config';
import {
  createSpendGuard,
  LEDGER_FAILURE_LOG_MESSAGE,
  limitReached,
  SPEND_LIMIT_LOG_MESSAGE,
} from '#lambdas/spend/spend-guard';
import { startTestLedger, type TestLedgerDatabase } from '#support/dynalite';
import { captureLogs, type CapturedLogs } from '#support/logs';
import { hang, startFakeServer, type FakeServer } from '#support/loopback';

const CONVERSATION = '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81';

describe('which limit is reached', () => {
  const caps = { dailyBudgetUsd: 10, clientShare: 0.05, conversationMaxTurns: 3 };

  it.each([
    [{ dayUsd: 9.99, clientUsd: 0.49, conversationTurns: 2 }, undefined],
    [{ dayUsd: 10, clientUsd: 0, conversationTurns: 0 }, 'day'],
    [{ dayUsd: 3, clientUsd: 0.5, conversationTurns: 0 }, 'client'],
    [{ dayUsd: 3, clientUsd: 0, conversationTurns: 3 }, 'conversation'],
    [{ dayUsd: 10, clientUsd: 0.5, conversationTurns: 3 }, 'day'],
  ] as const)('%o → %s', (totals, limit) => {
    expect(limitReached(totals, caps)).toBe(limit);
  });

  it('has no conversation limit for calls outside a conversation (pictures, speech)', () => {
    expect(
      limitReached(
        { dayUsd: 0, clientUsd: 0, conversationTurns: 99 },
        { dailyBudgetUsd: 10, clientShare: 0.05 },
      ),
    ).toBeUndefined();
  });
});

describe('the guard against the real ledger', () => {
  let database: TestLedgerDatabase;
  let logs: CapturedLogs;
  const guardWith = (env: Env) =>
    createSpendGuard(readSpendConfig({ ...database.env, ...env }), '/api/test', () =>
      Date.parse('2026-06-01T10:00:00Z'),
    );

  beforeAll(async () => {
    database = await startTestLedger();
  });
  afterAll(() => database.close());
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  it('allows until the day’s spend reaches the cap, then names the day, and logs it for the metric', async () => {
    const guard = guardWith({ ASTRO_DAILY_BUDGET_USD: '0.01', ASTRO_CLIENT_SHARE: '1' });
    const spender = { client: '192.0.2.1' };
    expect(await guard.check(spender)).toEqual({ allowed: true });

    const spending = guard.open(spender);
    spending.charge('picture', 0.01);
    await spending.settle();

    expect(await guard.check(spender)).toEqual({ allowed: false, limit: 'day' });
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({ message: SPEND_LIMIT_LOG_MESSAGE, limit: 'day', route: '/api/test' }),
    );
  });

  it('counts one conversation’s paid replies, once a request', async () => {
    const guard = guardWith({ ASTRO_DAILY_BUDGET_USD: '100', ASTRO_CONVERSATION_MAX_TURNS: '2' });
    const spender = { client: '192.0.2.2', conversationId: CONVERSATION };
    for (let reply = 0; reply < 2; reply += 1) {
      expect(await guard.check(spender)).toEqual({ allowed: true });
      const spending = guard.open(spender);
      // A reply of two model calls (a picture's follow-up) is one turn.
      spending.charge('chat', 0.001);
      spending.charge('chat', 0.001);
      await spending.settle();
    }

    expect(await guard.check(spender)).toEqual({ allowed: false, limit: 'conversation' });
    expect(await guard.check({ ...spender, conversationId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' })).toEqual(
      {
        allowed: true,
      },
    );
  });

  it('reads nothing and allows everything without a cap, but still records', async () => {
    const guard = guardWith({});
    const spender = { client: '192.0.2.3' };
    expect(await guard.check(spender)).toEqual({ allowed: true });
    const spending = guard.open(spender);
    spending.charge('speech', 0.17);
    await spending.settle();

    expect((await database.items()).some((item) => item.pk === 'day#2026-06-01')).toBe(true);
  });
});

describe('the guard when the ledger does not answer', () => {
  let dynamo: FakeServer;
  let logs: CapturedLogs;

  beforeAll(async () => {
    dynamo = await startFakeServer(hang);
  });
  afterAll(() => dynamo.close());
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  const hungGuard = () =>
    createSpendGuard(
      readSpendConfig({
        SPEND_TABLE: 'astro-spend',
        DYNAMODB_ENDPOINT: dynamo.url,
        ASTRO_DAILY_BUDGET_USD: '25',
        SPEND_READ_TIMEOUT_MS: '150',
        SPEND_WRITE_TIMEOUT_MS: '150',
      }),
      '/api/test',
    );

  it('counts a ledger it cannot read in time as reached: no paid call on an unknown spend, and a log line', async () => {
    expect(await hungGuard().check({ client: '192.0.2.9' })).toEqual({
      allowed: false,
      limit: 'ledger_unreadable',
    });
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({ message: LEDGER_FAILURE_LOG_MESSAGE, operation: 'read', timedOut: true }),
    );
  });

  it('never fails the request over a write it could not make: settle ends at the write deadline, logged', async () => {
    const spending = hungGuard().open({ client: '192.0.2.9' });

    spending.charge('chat', 0.5);
    await spending.settle();

    expect(logs.entries()).toContainEqual(
      expect.objectContaining({
        message: LEDGER_FAILURE_LOG_MESSAGE,
        operation: 'record',
        kind: 'chat',
        timedOut: true,
      }),
    );
  });

  it('does not spend a ticket it cannot record: the caller sketches instead', async () => {
    expect(await hungGuard().spendTicket({ id: 'mac', expiresAtMs: Date.now() + 60_000 })).toBe(
      'unavailable',
    );
  });
});
