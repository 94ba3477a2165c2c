import { INIT_MARKER } from '../contract/languages';
import type { ChatStreamLine } from '../contract/schemas';
import { StreamedText, withoutPartial, withoutTrailingSpace } from '../tutor/streamed-text';
import type { ReplyPlace } from '../trust/seals';
import type { Trust } from '../trust/trust';
import type { TutorStreamEvent } from '../tutor/tutor';
import { upstreamFailed } from '../upstream/upstream-errors';
import { clampPrompt, toChatResponse, withoutMarker } from './chat-response';

/** One NDJSON line. */
export function ndjsonLine(line: ChatStreamLine): string {
  return `${JSON.stringify(line)}\n`;
}

/** What the stream needs besides the tutor's events: where the reply stands, and the picture check. */
export interface ChatStreamOptions {
  readonly place: ReplyPlace;
  /**
   * Whether a picture prompt may get a ticket (docs/behaviour.md §14.9); refused, the reply has no picture. A
   * check that needs no network answers at once, so its picture line goes out at once.
   */
  readonly checkPicture: (prompt: string) => boolean | Promise<boolean>;
}

/** A picture prompt being checked: its verdict once known. */
interface CheckedPicture {
  readonly prompt: string;
  verdict: boolean | undefined;
  readonly settled: Promise<boolean>;
  sent: boolean;
}

function startCheck(prompt: string, check: ChatStreamOptions['checkPicture']): CheckedPicture {
  let answer: boolean | Promise<boolean>;
  try {
    answer = check(prompt);
  } catch {
    answer = false;
  }
  if (typeof answer === 'boolean') {
    return { prompt, verdict: answer, sent: false, settled: Promise.resolve(answer) };
  }
  const picture: CheckedPicture = {
    prompt,
    verdict: undefined,
    sent: false,
    settled: answer.then(
      (verdict) => (picture.verdict = verdict),
      () => (picture.verdict = false),
    ),
  };
  return picture;
}

/**
 * A tutor's stream as the lines of a streamed chat reply (docs/behaviour.md §11.2), under the rules
 * `toChatResponse` applies to a whole reply: the `__INIT__` marker never reaches the learner (not even split
 * across two deltas), the picture prompt fits the contract, and `done` carries exactly the text the deltas
 * spelled. The picture is checked while the words keep coming, and its line (with its ticket) follows as
 * soon as it passed; `done` is sealed for the reply's place as a whole reply is (docs/behaviour.md §12.2,
 * §12.4). A failure is thrown (the endpoint turns it into an error response or an `error` line).
 */
export async function* chatStreamLines(
  events: AsyncIterable<TutorStreamEvent>,
  trust: Pick<Trust, 'seal' | 'ticket'>,
  options: ChatStreamOptions,
): AsyncGenerator<string> {
  const text = new StreamedText(
    withoutMarker,
    (raw) => withoutTrailingSpace(withoutPartial(raw, INIT_MARKER)).length,
  );
  let picture: CheckedPicture | undefined;
  const pictureLine = async (): Promise<string | undefined> => {
    if (!picture || picture.sent || picture.verdict !== true) return undefined;
    picture.sent = true;
    const { prompt } = picture;
    return ndjsonLine({ type: 'picture', imagePrompt: prompt, imageTicket: await trust.ticket(prompt) });
  };
  for await (const event of events) {
    if (event.type === 'delta') {
      const piece = text.push(event.text);
      if (piece.length > 0) yield ndjsonLine({ type: 'delta', text: piece });
      const line = await pictureLine();
      if (line) yield line;
    } else if (event.type === 'picture') {
      const imagePrompt = clampPrompt(withoutMarker(event.imagePrompt));
      if (!picture && imagePrompt.length > 0) picture = startCheck(imagePrompt, options.checkPicture);
      const line = await pictureLine();
      if (line) yield line;
    } else {
      const rest = text.finish();
      if (rest.length > 0) yield ndjsonLine({ type: 'delta', text: rest });
      const reply = toChatResponse(event);
      // A picture the stream never announced (a server that answered whole) is checked now.
      if (!picture && reply.imagePrompt !== undefined)
        picture = startCheck(reply.imagePrompt, options.checkPicture);
      await picture?.settled;
      const line = await pictureLine();
      if (line) yield line;
      const { imagePrompt: _offered, ...words } = reply;
      const checked = picture?.verdict === true ? { ...words, imagePrompt: picture.prompt } : words;
      yield ndjsonLine({ type: 'done', ...(await trust.seal(checked, options.place)) });
      return;
    }
  }
  throw upstreamFailed(new Error('the tutor stream ended without its reply'));
}
