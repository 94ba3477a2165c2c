import { DEFAULT_LEVEL } from '../contract/teaching';
import { referenceNotes } from './grounding';
import { initInstruction, modelUserText, systemPrompt } from './system-prompt';
import type { TutorRequest } from './tutor';

export interface ModelTurn {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/**
 * The conversation as chat models accept it: it starts with a user turn and the roles alternate (the
 * Converse API refuses anything else; several local chat templates do too), ending with the learner's
 * new message. The web app's history usually opens with Astro's greeting, whose request (the init
 * message) is not in the transcript, so a leading assistant turn gets the init instruction before it.
 * Consecutive turns of one role are merged; blank turns are dropped, as Converse refuses blank text.
 */
export function modelTurns(request: TutorRequest): ModelTurn[] {
  const turns: ModelTurn[] = [];
  const add = (role: ModelTurn['role'], text: string) => {
    if (text.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) turns[turns.length - 1] = { role, text: `${last.text}\n\n${text}` };
    else turns.push({ role, text });
  };
  for (const turn of request.history) {
    add(
      turn.role,
      turn.role === 'user' ? modelUserText(turn.content, request.language) : turn.content.trim(),
    );
  }
  add('user', modelUserText(request.userMessage, request.language));
  if (turns[0]?.role === 'assistant')
    turns.unshift({ role: 'user', text: initInstruction(request.language) });
  if (turns.length === 0) turns.push({ role: 'user', text: initInstruction(request.language) });
  return turns;
}

/** What a model is sent for one reply: the system prompt and the conversation. */
export interface ModelPrompt {
  readonly system: string;
  readonly turns: readonly ModelTurn[];
}

/**
 * The system prompt for the request's language and level (docs/behaviour.md §17.9), grounded in the
 * lessons that best match the learner's message (§17.6), and the conversation as the model takes it.
 */
export async function modelPrompt(request: TutorRequest): Promise<ModelPrompt> {
  const level = request.level ?? DEFAULT_LEVEL;
  const notes = await referenceNotes(request.userMessage, request.language, level);
  return {
    system: systemPrompt(request.language, level, notes),
    turns: modelTurns(request),
  };
}
