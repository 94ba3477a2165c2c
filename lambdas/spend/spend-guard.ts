/**
 * The spend guard (docs/behaviour.md §12.18–§12.20): before a paid call, whether it may be made; after it,
 * what it cost, into the ledger. The owner's cap is the day's budget (`ASTRO_DAILY_BUDGET_USD`), one
 * client's share of it (`ASTRO_CLIENT_SHARE`) and one conversation's paid replies
 * (`ASTRO_CONVERSATION_MAX_TURNS`); past any of them the caller answers at no cost instead (the offline
 * tutor, a sketch, the browser's speech).
 *
 * Neither side may slow a learner down or fail them: the read has a deadline, and a ledger that cannot be
 * read counts as reached (the owner's cap is a promise, docs/design-notes.md "Trust and cost"); writes
 * run alongside the answer, each under a deadline, and a failed one is logged, never answered.
 */
import type { SpendConfig } from '../config';
import type { SpendLimit } from '../contract/spend';
import { errorFields, log } from '../lib/log';
import { deadline } from '../upstream/deadline';
import { SpendLedger, type SpendEntry, type Spender, type SpendKind, type SpendTotals } from './ledger';

/** Whether a paid call may be made, and if not, which limit stopped it. */
export type SpendVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly limit: SpendLimit | 'ledger_unreadable' };

const ALLOWED: SpendVerdict = { allowed: true };

/** The log line every refusal writes; the stack counts it into the `SpendLimitReached` metric. */
export const SPEND_LIMIT_LOG_MESSAGE = 'spend limit reached';
/** The log line a ledger failure writes; the stack counts it into the `SpendLedgerFailures` metric. */
export const LEDGER_FAILURE_LOG_MESSAGE = 'spend ledger failed';

/** Which limit the counters have reached, if any (the day's first: it is everyone's). */
export function limitReached(
  totals: SpendTotals,
  caps: {
    readonly dailyBudgetUsd: number;
    readonly clientShare: number;
    readonly conversationMaxTurns?: number;
  },
): SpendLimit | undefined {
  if (totals.dayUsd >= caps.dailyBudgetUsd) return 'day';
  if (totals.clientUsd >= caps.dailyBudgetUsd * caps.clientShare) return 'client';
  if (caps.conversationMaxTurns !== undefined && totals.conversationTurns >= caps.conversationMaxTurns) {
    return 'conversation';
  }
  return undefined;
}

export class SpendGuard {
  constructor(
    private readonly ledger: SpendLedger | undefined,
    private readonly config: SpendConfig,
    /** The endpoint, for the log lines. */
    private readonly route: string,
  ) {}

  /** True when a cap is set: without one nothing is refused (spending is still recorded). */
  get capped(): boolean {
    return this.ledger !== undefined && this.config.dailyBudgetUsd !== undefined;
  }

  /**
   * Whether `spender` may make a paid call now. With no cap set, always; otherwise the day's counters are
   * read (within SPEND_READ_TIMEOUT_MS) and compared with the caps.
   */
  async check(spender: Spender): Promise<SpendVerdict> {
    const budget = this.config.dailyBudgetUsd;
    if (!this.ledger || budget === undefined) return ALLOWED;
    const limit = deadline(this.config.readTimeoutMs);
    let totals: SpendTotals;
    try {
      totals = await this.ledger.read(spender, limit.signal);
    } catch (error) {
      log.error(LEDGER_FAILURE_LOG_MESSAGE, {
        route: this.route,
        operation: 'read',
        timedOut: limit.expired(),
        ...errorFields(error),
      });
      return { allowed: false, limit: 'ledger_unreadable' };
    } finally {
      limit.dispose();
    }
    const reached = limitReached(totals, {
      dailyBudgetUsd: budget,
      clientShare: this.config.clientShare,
      ...(spender.conversationId === undefined
        ? {}
        : { conversationMaxTurns: this.config.conversationMaxTurns }),
    });
    if (reached === undefined) return ALLOWED;
    log.warn(SPEND_LIMIT_LOG_MESSAGE, { route: this.route, limit: reached });
    return { allowed: false, limit: reached };
  }

  /**
   * Spends a picture ticket once across every function (a conditional write): `spent` for the one caller
   * that may draw with it, `taken` when another did, `unrecorded` with no ledger to keep it in (a plain
   * local setup: one process, whose single-flight already draws once), `unavailable` when the ledger
   * failed (not knowing is not a yes).
   */
  async spendTicket(ticket: {
    readonly id: string;
    readonly expiresAtMs: number;
  }): Promise<'spent' | 'taken' | 'unrecorded' | 'unavailable'> {
    if (!this.ledger) return 'unrecorded';
    const limit = deadline(this.config.writeTimeoutMs);
    try {
      return (await this.ledger.spendTicket(ticket.id, ticket.expiresAtMs, limit.signal)) ? 'spent' : 'taken';
    } catch (error) {
      log.error(LEDGER_FAILURE_LOG_MESSAGE, {
        route: this.route,
        operation: 'ticket',
        timedOut: limit.expired(),
        ...errorFields(error),
      });
      return 'unavailable';
    } finally {
      limit.dispose();
    }
  }

  /** Gives back a ticket whose draw failed, so the learner can ask again (best effort, logged). */
  async releaseTicket(ticket: { readonly id: string }): Promise<void> {
    if (!this.ledger) return;
    const limit = deadline(this.config.writeTimeoutMs);
    try {
      await this.ledger.releaseTicket(ticket.id, limit.signal);
    } catch (error) {
      log.error(LEDGER_FAILURE_LOG_MESSAGE, {
        route: this.route,
        operation: 'release',
        ...errorFields(error),
      });
    } finally {
      limit.dispose();
    }
  }

  /** The paid calls of one request, recorded as they happen. */
  open(spender: Spender): Spending {
    return new Spending(this.ledger, spender, this.config.writeTimeoutMs, this.route);
  }
}

/**
 * The ledger writes of one request. Each charge starts its write at once (alongside whatever the request
 * still does) under its own deadline; `settle` waits for them before the answer ends, so a Lambda is not
 * frozen with a write half done. A failure is logged and forgotten.
 */
export class Spending {
  private readonly pending = new Set<Promise<void>>();
  private turnCounted = false;

  constructor(
    private readonly ledger: SpendLedger | undefined,
    private readonly spender: Spender,
    private readonly writeTimeoutMs: number,
    private readonly route: string,
  ) {}

  /** Records a paid call's cost; the first chat charge of a request also counts the conversation's turn. */
  charge(kind: SpendKind, usd: number): void {
    if (!this.ledger) return;
    const turn = kind === 'chat' && !this.turnCounted;
    if (turn) this.turnCounted = true;
    if (usd <= 0 && !turn) return;
    const entry: SpendEntry = { kind, usd, turn };
    const limit = deadline(this.writeTimeoutMs);
    const write = this.ledger
      .record(this.spender, entry, limit.signal)
      .catch((error: unknown) => {
        log.error(LEDGER_FAILURE_LOG_MESSAGE, {
          route: this.route,
          operation: 'record',
          kind,
          timedOut: limit.expired(),
          ...errorFields(error),
        });
      })
      .finally(() => {
        limit.dispose();
        this.pending.delete(write);
      });
    this.pending.add(write);
  }

  /** Waits for the writes started so far (each is bounded by its own deadline, so this is too). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

/** The guard an endpoint uses, as configured: with a ledger when there is a table. */
export function createSpendGuard(config: SpendConfig, route: string, now?: () => number): SpendGuard {
  const ledger = config.tableName
    ? new SpendLedger({ tableName: config.tableName, region: config.region, endpoint: config.endpoint, now })
    : undefined;
  return new SpendGuard(ledger, config, route);
}
