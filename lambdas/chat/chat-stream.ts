import { INIT_MARKER } from '../contract/languages';
import type { ChatStreamLine } from '../contract/schemas';
import { StreamedText, withoutPartial, withoutTrailingSpace } from '../tutor/streamed-text';
import type { Trust } from '../trust/trust';
import type { TutorStreamEvent } from '../tutor/tutor';
import { upstreamFailed } from '../upstream/upstream-errors';
import { clampPrompt, toChatResponse, withoutMarker } from './chat-response';

/** One NDJSON line. */
export function ndjsonLine(line: ChatStreamLine): string {
  return `${JSON.stringify(line)}\n`;
}

/**
 * A tutor's stream as the lines of a streamed chat reply (docs/behaviour.md §11.2), under the rules
 * `toChatResponse` applies to a whole reply: the `__INIT__` marker never reaches the learner (not even split
 * across two deltas), the picture prompt fits the contract, and `done` carries exactly the text the deltas
 * spelled. The `picture` line carries its ticket and `done` is sealed as a whole reply is (docs/behaviour.md
 * §12.2, §12.4). A failure is thrown (the endpoint turns it into an error response or an `error` line).
 */
export async function* chatStreamLines(
  events: AsyncIterable<TutorStreamEvent>,
  trust: Pick<Trust, 'seal' | 'ticket'>,
): AsyncGenerator<string> {
  const text = new StreamedText(
    withoutMarker,
    (raw) => withoutTrailingSpace(withoutPartial(raw, INIT_MARKER)).length,
  );
  let pictureSent = false;
  for await (const event of events) {
    if (event.type === 'delta') {
      const piece = text.push(event.text);
      if (piece.length > 0) yield ndjsonLine({ type: 'delta', text: piece });
    } else if (event.type === 'picture') {
      const imagePrompt = clampPrompt(withoutMarker(event.imagePrompt));
      if (!pictureSent && imagePrompt.length > 0) {
        pictureSent = true;
        yield ndjsonLine({ type: 'picture', imagePrompt, imageTicket: await trust.ticket(imagePrompt) });
      }
    } else {
      const rest = text.finish();
      if (rest.length > 0) yield ndjsonLine({ type: 'delta', text: rest });
      yield ndjsonLine({ type: 'done', ...(await trust.seal(toChatResponse(event))) });
      return;
    }
  }
  throw upstreamFailed(new Error('the tutor stream ended without its reply'));
}
