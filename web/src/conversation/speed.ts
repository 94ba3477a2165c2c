/**
 * The playback speeds the learner can choose (docs/behaviour.md §2.22, §9.2). Web-only: the API never sees
 * them, so they live beside the reducer rather than in the contract.
 */
export const PLAYBACK_SPEEDS = [1, 1.25, 1.5, 2] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];
export const DEFAULT_PLAYBACK_SPEED: PlaybackSpeed = 1;
