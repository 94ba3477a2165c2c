import { initInstruction, modelUserText } from './system-prompt';
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
