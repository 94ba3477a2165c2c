/**
 * The judging suite's pieces for vitest-evals: the harness that plays a dialogue through the chat handler
 * and scores each judged turn, and one judge per MRBench dimension (the share of the dialogue's turns it
 * applies to that pass).
 */
import { createHarness, createJudge } from 'vitest-evals';
import type { Locale } from '#contract/languages';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import type { Dialogue } from './cases';
import { playDialogue } from './play';
import { DIMENSION_LABELS, DIMENSIONS, scoreTurn, type Dimension } from './score';
import type { DialogueResult, ResultTurn } from './scorecard';

export interface DialogueInput {
  readonly language: Locale;
  readonly dialogue: Dialogue;
}

/** Plays the dialogue and scores it: the result is what the scorecard counts. */
export async function runDialogue(
  handler: StreamingApiHandler,
  { language, dialogue }: DialogueInput,
): Promise<DialogueResult> {
  const played = await playDialogue(handler, dialogue, language);
  const transcript: DialogueResult['transcript'] = [];
  const turns: ResultTurn[] = [];
  let next = 0;
  for (const turn of dialogue.turns) {
    if ('astro' in turn) {
      transcript.push({ speaker: 'astro', text: turn.astro });
      continue;
    }
    const play = played[next];
    next += 1;
    if (!play) continue;
    if (play.turn.expect === undefined) {
      transcript.push({ speaker: 'learner', text: turn.learner });
    } else {
      transcript.push({ speaker: 'learner', text: turn.learner, scored: turns.length });
      turns.push({
        learner: turn.learner,
        expect: play.turn.expect,
        reply: play.reply.text,
        ...(play.reply.check === undefined ? {} : { check: play.reply.check }),
        ...(play.error === undefined ? {} : { error: play.error }),
        score: scoreTurn({
          language,
          expect: play.turn.expect,
          ...(play.turn.about === undefined ? {} : { about: play.turn.about }),
          ...(play.turn.never === undefined ? {} : { never: play.turn.never }),
          reply: play.reply,
          ...(play.previousAstro === undefined ? {} : { previousAstro: play.previousAstro }),
        }),
      });
    }
    if (play.reply.text.length > 0) transcript.push({ speaker: 'astro', text: play.reply.text });
  }
  return {
    language,
    id: dialogue.id,
    kind: dialogue.kind,
    ...(dialogue.note === undefined ? {} : { note: dialogue.note }),
    transcript,
    turns,
  };
}

/** The harness vitest-evals runs: one dialogue in, its scored result out, with the exchange as its session. */
export function dialogueHarness(handler: StreamingApiHandler) {
  return createHarness<DialogueInput, DialogueResult>({
    name: 'astro-chat',
    run: async ({ input }) => {
      const output = await runDialogue(handler, input);
      return {
        output,
        events: output.transcript.map((said) => ({
          type: 'message' as const,
          role: said.speaker === 'astro' ? ('assistant' as const) : ('user' as const),
          content: said.text,
        })),
      };
    },
  });
}

/** One judge per dimension: 1 when every turn it applies to passes (or none does). */
export const DIMENSION_JUDGES = DIMENSIONS.map((dimension: Dimension) =>
  createJudge<DialogueInput, DialogueResult>(DIMENSION_LABELS[dimension], async ({ output }) => {
    const applicable = output.turns.filter((turn) => turn.score.dimensions[dimension] !== 'n/a');
    const failing = applicable.filter((turn) => turn.score.dimensions[dimension] === 'fail');
    return {
      score: applicable.length === 0 ? 1 : (applicable.length - failing.length) / applicable.length,
      metadata: {
        rationale:
          failing.length === 0
            ? 'every turn passes'
            : failing.map((turn) => `"${turn.learner}" → "${turn.reply}"`).join('; '),
      },
    };
  }),
);
