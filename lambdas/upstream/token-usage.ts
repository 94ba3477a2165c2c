/** What a model said one call read and wrote, in tokens (or an estimate of it: {@link CallUsage}). */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Told each model call's usage as soon as it is known, for the spend ledger (docs/behaviour.md §12.18). */
export type UsageMeter = (usage: TokenUsage) => void;

/**
 * One model call's usage, told to the meter exactly once (docs/behaviour.md §12.18): what the model said it
 * used, or, for a call that ended without saying (cut by a deadline, the learner leaving, a failure, a
 * server that never reports usage), an estimate that never counts less than the call could have cost: a
 * token for every character sent, and for every character that came back. A learner who leaves mid-reply
 * still paid for the prompt the model read.
 */
export class CallUsage {
  private received = 0;
  private told = false;

  constructor(
    private readonly meter: UsageMeter | undefined,
    /** The characters the call sent (its system prompt, messages and tools). */
    private readonly sentChars: number,
  ) {}

  /** The model's own figures, when its answer carries them (ignored when unreadable or already told). */
  reported(usage: TokenUsage | undefined): void {
    if (usage === undefined || this.told) return;
    this.told = true;
    this.meter?.(usage);
  }

  /** Text that came back, for the estimate. */
  saw(text: string): void {
    this.received += text.length;
  }

  /** The call is over: an estimate if the model never said. */
  end(): void {
    if (this.told) return;
    this.told = true;
    this.meter?.({ inputTokens: this.sentChars, outputTokens: this.received });
  }
}

/** Whole, non-negative token counts from a provider's usage fields, or undefined when they are unusable. */
export function tokenUsage(input: unknown, output: unknown): TokenUsage | undefined {
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
  const inputTokens = count(input);
  const outputTokens = count(output);
  return inputTokens === undefined || outputTokens === undefined ? undefined : { inputTokens, outputTokens };
}
