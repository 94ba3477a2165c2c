/**
 * What the API says about the spend guard (docs/behaviour.md §12.18–§12.20), as plain data for both sides:
 * when a reply comes from the offline tutor because a spending limit was reached, the header names which
 * one, so the web app can say so in the learner's language.
 */

/** Names the limit that sent a chat reply to the offline tutor (with `X-Astro-Tutor: offline`). */
export const SPEND_LIMIT_HEADER = 'X-Astro-Spend-Limit';

/**
 * `day`: the day's budget is spent; `client`: this address's share of it; `conversation`: this
 * conversation's own cap. Each lasts until the UTC day ends (the conversation's until it ends).
 */
export const SPEND_LIMITS = ['day', 'client', 'conversation'] as const;
export type SpendLimit = (typeof SPEND_LIMITS)[number];
