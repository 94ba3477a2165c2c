import type { TutorStreamEvent } from '#lambdas/tutor/tutor';

export interface Collected {
  readonly events: TutorStreamEvent[];
  /** The deltas joined: what the learner saw grow. */
  readonly text: string;
  /** What the stream ended with, when it failed. */
  readonly error?: unknown;
}

/** Reads a tutor's stream to its end (or failure), keeping every event in order. */
export async function collect(stream: AsyncIterable<TutorStreamEvent>): Promise<Collected> {
  const events: TutorStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, text: joined(events), error };
  }
  return { events, text: joined(events) };
}

function joined(events: readonly TutorStreamEvent[]): string {
  return events.map((event) => (event.type === 'delta' ? event.text : '')).join('');
}

/** The `done` event's reply without its type, to compare with `reply()`. */
export function doneReply(events: readonly TutorStreamEvent[]) {
  const done = events.at(-1);
  if (done?.type !== 'done') throw new Error(`the stream did not end with done: ${JSON.stringify(done)}`);
  const { type: _type, ...reply } = done;
  return reply;
}

/** A promise a test resolves when it chooses: lets a fake model wait between two chunks. */
export function gate(): { readonly wait: () => Promise<void>; readonly open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}
