import type { ChatTurn } from '../contract/schemas';

/**
 * The most history the model sees (docs/behaviour.md §12.7; §7.4 allows the client 50 turns of 4000
 * characters).
 */
export const HISTORY_BUDGET = { turns: 20, chars: 16_000 } as const;

/**
 * The most recent whole turns within the budget, so neither a long conversation nor a padded history
 * can make one reply cost more than a bounded number of input tokens.
 */
export function withinBudget(
  history: readonly ChatTurn[],
  budget: { readonly turns: number; readonly chars: number } = HISTORY_BUDGET,
): ChatTurn[] {
  const kept: ChatTurn[] = [];
  let chars = 0;
  for (let index = history.length - 1; index >= 0 && kept.length < budget.turns; index -= 1) {
    const turn = history[index];
    if (!turn) continue;
    if (chars + turn.content.length > budget.chars) break;
    kept.unshift(turn);
    chars += turn.content.length;
  }
  return kept;
}
