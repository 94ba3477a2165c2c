import { describe, expect, it } from 'vitest';
import { CHAT_HISTORY_MAX_TURNS, CHAT_TURN_MAX_CHARS, FEEDBACK_HISTORY_MAX_MESSAGES } from '#contract/limits';
import { PLAYBACK_SPEEDS } from '#web/conversation/speed';
import type { ChatMessage } from '#contract/schemas';
import { DEFAULT_LEVEL, type Check } from '#contract/teaching';
import {
  lastReplyText,
  canSubmitFeedback,
  chatHistoryOf,
  conversationReducer,
  feedbackHistoryOf,
  initialState,
  isBusy,
  isInitializing,
  openQuestionId,
  type ConversationAction,
  type ConversationState,
} from '#web/conversation/state';

const ID = '0b7f4c1e-1d5e-4a51-9b1e-3f0b6f1d2c3a';

function run(state: ConversationState, ...actions: ConversationAction[]): ConversationState {
  return actions.reduce(conversationReducer, state);
}

const started = (state = initialState) => run(state, { type: 'started', conversationId: ID });
const reply = (text = 'Hello, I am Astro.', id = 100): ConversationAction => ({
  type: 'reply_received',
  conversationId: ID,
  id,
  text,
  offlineTutor: false,
});
const finished: ConversationAction = { type: 'playback_finished', conversationId: ID };
const completed = (check?: Check): ConversationAction => ({
  type: 'reply_completed',
  conversationId: ID,
  ...(check ? { check } : {}),
});
const listening = () => run(started(), reply(), completed(), finished);
const utterance = (text: string, id: number): ConversationAction => ({
  type: 'utterance_received',
  id,
  text,
});

describe('the conversation reducer (docs/behaviour.md §4)', () => {
  it('starts idle, inactive, in en-US at speed 1 with no messages', () => {
    expect(initialState).toMatchObject({
      status: 'idle',
      active: false,
      language: 'en-US',
      speed: 1,
      messages: [],
    });
  });

  it('Start takes the new conversation id, clears messages and interim, sets thinking and marks active', () => {
    const before: ConversationState = {
      ...initialState,
      messages: [{ id: 1, text: 'old', sender: 'user' }],
      interim: 'half',
    };
    const state = started(before);
    expect(state).toMatchObject({
      conversationId: ID,
      messages: [],
      interim: '',
      status: 'thinking',
      active: true,
    });
  });

  it('Start locks in the chosen language as the conversation language', () => {
    const state = started(run(initialState, { type: 'language_selected', language: 'he-IL' }));
    expect(state.conversationLanguage).toBe('he-IL');
  });

  it('refuses the language change while a conversation is active and accepts it after End', () => {
    const active = started();
    expect(run(active, { type: 'language_selected', language: 'ar-SA' }).language).toBe('en-US');
    expect(run(active, { type: 'ended' }, { type: 'language_selected', language: 'ar-SA' }).language).toBe(
      'ar-SA',
    );
  });

  it('ignores a second Start while a conversation is active', () => {
    const active = started();
    expect(conversationReducer(active, { type: 'started', conversationId: 'another' })).toBe(active);
  });

  it('a reply adds an astro message and sets speaking; the end of playback returns to listening', () => {
    const speaking = run(started(), reply('Welcome!'));
    expect(speaking.status).toBe('speaking');
    expect(speaking.messages).toEqual([{ id: 100, text: 'Welcome!', sender: 'astro' }]);
    expect(run(speaking, finished).status).toBe('listening');
  });

  it('a reply with an imagePrompt adds a loading- placeholder after the astro message', () => {
    const state = run(started(), {
      ...(reply('Look at this.') as Extract<ConversationAction, { type: 'reply_received' }>),
      picture: { loadingId: 'loading-101', prompt: 'Saturn and its rings' },
    });
    expect(state.messages).toEqual([
      { id: 100, text: 'Look at this.', sender: 'astro' },
      { id: 'loading-101', text: 'Saturn and its rings', sender: 'astro', isLoading: true },
    ]);
  });

  it('the image replaces its placeholder with a timestamped message carrying the URL', () => {
    const withPlaceholder = run(started(), {
      ...(reply() as Extract<ConversationAction, { type: 'reply_received' }>),
      picture: { loadingId: 'loading-101', prompt: 'Saturn' },
    });
    const state = run(withPlaceholder, {
      type: 'picture_ready',
      loadingId: 'loading-101',
      id: 102,
      imageUrl: '/images/a.svg',
    });
    expect(state.messages[1]).toEqual({
      id: 102,
      text: 'Saturn',
      sender: 'astro',
      imageUrl: '/images/a.svg',
    });
  });

  it('an image failure removes its placeholder', () => {
    const withPlaceholder = run(started(), {
      ...(reply() as Extract<ConversationAction, { type: 'reply_received' }>),
      picture: { loadingId: 'loading-101', prompt: 'Saturn' },
    });
    const state = run(withPlaceholder, { type: 'picture_failed', loadingId: 'loading-101' });
    expect(state.messages.map((message) => message.id)).toEqual([100]);
  });

  it('a chat failure returns to listening', () => {
    expect(run(started(), { type: 'chat_failed', conversationId: ID }).status).toBe('listening');
  });

  it('accepts a final utterance only while listening: user message added, interim cleared, thinking', () => {
    const state = run(
      listening(),
      { type: 'interim_recognized', text: 'what is a' },
      utterance('What is a comet?', 7),
    );
    expect(state.messages.at(-1)).toEqual({ id: 7, text: 'What is a comet?', sender: 'user' });
    expect(state.interim).toBe('');
    expect(state.status).toBe('thinking');
  });

  it.each(['thinking', 'speaking'] as const)('drops a final utterance while %s', (status) => {
    const state = status === 'thinking' ? started() : run(started(), reply());
    expect(state.status).toBe(status);
    expect(conversationReducer(state, utterance('Hello?', 8))).toBe(state);
  });

  it('drops a final utterance when no conversation is active', () => {
    expect(conversationReducer(initialState, utterance('Hello?', 8))).toBe(initialState);
  });

  it('drops a blank utterance', () => {
    const state = listening();
    expect(conversationReducer(state, utterance('   ', 8))).toBe(state);
  });

  it('shows interim text only while listening', () => {
    expect(run(listening(), { type: 'interim_recognized', text: 'what' }).interim).toBe('what');
    expect(run(started(), { type: 'interim_recognized', text: 'what' }).interim).toBe('');
  });

  it('clears the interim text when recognition says so (no match, an empty phrase), in any status', () => {
    const half = run(listening(), { type: 'interim_recognized', text: 'what is' });
    expect(run(half, { type: 'interim_recognized', text: '' }).interim).toBe('');
    const typed = run(half, utterance('Hi', 1));
    expect(run(typed, { type: 'interim_recognized', text: '' })).toBe(typed);
  });

  it('takes the interim text away with a final phrase that is rejected because Astro is not listening', () => {
    const half = run(listening(), { type: 'interim_recognized', text: 'what is' });
    // A typed message is accepted; the recogniser's interim from before it is cleared with it.
    const thinking = run(half, utterance('Hi', 1));
    expect(thinking.interim).toBe('');
    // Force a stale interim while thinking (as a late recogniser event could leave it), then a rejected phrase.
    const stale: ConversationState = { ...thinking, interim: 'echo of Astro' };
    const rejected = run(stale, utterance('echo of Astro speaking', 2));
    expect(rejected).toMatchObject({ status: 'thinking', interim: '' });
    expect(rejected.messages).toHaveLength(thinking.messages.length);
  });

  it('records recognition health for the active conversation and forgets it at End or Start', () => {
    const down = run(listening(), { type: 'listening_health', health: 'reconnecting' });
    expect(down.listeningHealth).toBe('reconnecting');
    expect(run(down, { type: 'ended' }).listeningHealth).toBe(null);
    expect(run(initialState, { type: 'listening_health', health: 'reconnecting' })).toBe(initialState);
    const again = run(down, { type: 'ended' }, { type: 'started', conversationId: ID });
    expect(again.listeningHealth).toBe(null);
  });

  it('notes a missing voice for the current conversation only, until the next Start', () => {
    const missing = run(listening(), { type: 'voice_missing', conversationId: ID });
    expect(missing.voiceMissing).toBe(true);
    expect(run(listening(), { type: 'voice_missing', conversationId: 'another' }).voiceMissing).toBe(false);
    const restarted = run(missing, { type: 'ended' }, { type: 'started', conversationId: ID });
    expect(restarted.voiceMissing).toBe(false);
  });

  it('End marks inactive, sets idle and clears interim, keeping the transcript on screen', () => {
    const state = run(listening(), { type: 'interim_recognized', text: 'half a' }, { type: 'ended' });
    expect(state).toMatchObject({ active: false, status: 'idle', interim: '' });
    expect(state.messages).toHaveLength(1);
  });

  it('ignores a reply, failure or playback end that belongs to another or an ended conversation', () => {
    const thinking = started();
    const stale = { ...thinking, conversationId: 'another' };
    expect(conversationReducer(stale, reply())).toBe(stale);
    const ended = run(thinking, { type: 'ended' });
    expect(conversationReducer(ended, reply())).toBe(ended);
    expect(conversationReducer(ended, { type: 'chat_failed', conversationId: ID })).toBe(ended);
    expect(conversationReducer(ended, finished)).toBe(ended);
  });

  it('remembers the speed from the four choices', () => {
    for (const speed of PLAYBACK_SPEEDS) {
      expect(run(initialState, { type: 'speed_selected', speed }).speed).toBe(speed);
    }
  });

  it('records that the offline tutor answered, for the quiet note', () => {
    const state = run(started(), {
      ...(reply() as Extract<ConversationAction, { type: 'reply_received' }>),
      offlineTutor: true,
    });
    expect(state.offlineTutor).toBe(true);
  });
});

describe('the Start/End button rule (docs/behaviour.md §2.11)', () => {
  const ready = (state: ConversationState) => run(state, { type: 'engine_ready', engine: 'browser' });

  it('is disabled while thinking, speaking or initializing, and enabled while idle or listening', () => {
    expect(isBusy(ready(started()))).toBe(true);
    expect(isBusy(ready(run(started(), reply())))).toBe(true);
    expect(isBusy(initialState)).toBe(false);
    expect(isBusy(ready(listening()))).toBe(false);
  });

  it('is initializing from Start until the engine is ready or known to be missing, whatever the status', () => {
    // The greeting arrived and was spoken before the engine: still getting ready, still busy.
    expect(isInitializing(listening())).toBe(true);
    expect(isBusy(listening())).toBe(true);
    expect(isInitializing(ready(listening()))).toBe(false);
    expect(isInitializing(run(listening(), { type: 'engine_ready', engine: 'none' }))).toBe(false);
    // Not before Start, and not after End (the engine of an ended conversation does not matter).
    expect(isInitializing(initialState)).toBe(false);
    expect(isInitializing(run(started(), { type: 'ended' }))).toBe(false);
  });
});

describe('the feedback modal (docs/behaviour.md §4.18–§4.20, §5)', () => {
  /** The learner's message n, Astro's whole reply to it (with `check`, if any), spoken to its end. */
  const turn = (state: ConversationState, n: number, check?: Check) =>
    run(
      state,
      utterance(`Question ${n}`, 1000 + n),
      reply(`Answer ${n}`, 2000 + n),
      completed(check),
      finished,
    );
  const question: Check = { type: 'question' };
  const askedAgain: Check = { type: 'answer', correct: false, openQuestion: true };

  it('opens once Astro has answered the third user message and listens again, not before', () => {
    const two = turn(turn(listening(), 1), 2);
    expect(two.feedback.open).toBe(false);
    // The third message is accepted, and its reply said: the dialog waits until Astro listens again.
    const accepted = run(two, utterance('Question 3', 1003));
    expect(accepted.feedback.open).toBe(false);
    const said = run(accepted, reply('Answer 3', 2003), completed());
    expect(said).toMatchObject({ status: 'speaking', feedback: { open: false } });
    expect(run(said, finished).feedback).toEqual({ open: true, done: false, sending: false });
  });

  it.each(['feedback_dismissed', 'feedback_settled'] as const)('never opens again after %s', (closing) => {
    let state = turn(turn(turn(listening(), 1), 2), 3);
    expect(state.feedback.open).toBe(true);
    if (closing === 'feedback_settled') state = run(state, { type: 'feedback_submitted' });
    state = run(state, { type: closing });
    expect(state.feedback).toEqual({ open: false, done: true, sending: false });
    state = turn(state, 4);
    expect(state.feedback.open).toBe(false);
    state = run(
      state,
      { type: 'ended' },
      { type: 'started', conversationId: ID },
      reply(),
      completed(),
      finished,
    );
    for (let n = 1; n <= 4; n += 1) state = turn(state, n);
    expect(state.feedback.open).toBe(false);
  });

  it('does not open for a conversation that is no longer active', () => {
    const two = turn(turn(listening(), 1), 2);
    const ended = run(two, { type: 'ended' });
    expect(run(ended, utterance('Question 3', 1003)).feedback.open).toBe(false);
    // Ended while the reply to the third message was on its way: it never opens for that conversation.
    const waiting = run(two, utterance('Question 3', 1003), { type: 'ended' });
    expect(run(waiting, reply('Answer 3', 2003), completed(), finished).feedback.open).toBe(false);
  });

  it('Submit sets the done flag and sending; the settled answer closes the modal, success or not', () => {
    const open = turn(turn(turn(listening(), 1), 2), 3);
    const sending = run(open, { type: 'feedback_submitted' });
    expect(sending.feedback).toEqual({ open: true, done: true, sending: true });
    expect(run(sending, { type: 'feedback_settled' }).feedback).toEqual({
      open: false,
      done: true,
      sending: false,
    });
  });

  it('cannot be dismissed or submitted twice while sending', () => {
    const open = turn(turn(turn(listening(), 1), 2), 3);
    const sending = run(open, { type: 'feedback_submitted' });
    expect(conversationReducer(sending, { type: 'feedback_dismissed' })).toBe(sending);
    expect(conversationReducer(sending, { type: 'feedback_submitted' })).toBe(sending);
  });

  it('never opens while a check question is open: it waits for the judgement that closes it', () => {
    const asked = turn(turn(turn(listening(), 1, question), 2, question), 3, question);
    expect(asked).toMatchObject({ status: 'listening', checkOpen: true, feedback: { open: false } });
    // A first wrong try gets the hint and the question again: still open, still waiting.
    const hinted = turn(asked, 4, askedAgain);
    expect(hinted).toMatchObject({ checkOpen: true, feedback: { open: false } });
    // Judged right, then an offer of the next topic: open once Astro has said it.
    const judged = run(hinted, utterance('Jupiter', 1005), reply('Yes! Shall we visit Saturn?', 2005));
    const said = run(judged, completed({ type: 'answer', correct: true }));
    expect(said).toMatchObject({ status: 'speaking', checkOpen: false, feedback: { open: false } });
    expect(run(said, finished).feedback.open).toBe(true);
    // The answer revealed after a second wrong try closes the question too.
    const revealed = turn(hinted, 5, { type: 'answer', correct: false });
    expect(revealed).toMatchObject({ checkOpen: false, feedback: { open: true } });
  });

  it('waits for the end of a quiz: each answer is followed by the next question until the score', () => {
    let quiz = turn(turn(listening(), 1), 2, question);
    quiz = turn(quiz, 3, { type: 'answer', correct: true, openQuestion: true });
    quiz = turn(quiz, 4, { type: 'answer', correct: false, openQuestion: true });
    expect(quiz).toMatchObject({ checkOpen: true, stars: 1, feedback: { open: false } });
    const scored = turn(quiz, 5, { type: 'answer', correct: true });
    expect(scored).toMatchObject({ checkOpen: false, stars: 2, feedback: { open: true } });
  });

  it('waits for the whole reply when Skip makes Astro listen before it is complete', () => {
    const skipped = run(
      turn(turn(listening(), 1), 2),
      utterance('Question 3', 1003),
      reply('The Sun'),
      finished,
    );
    expect(skipped).toMatchObject({ status: 'listening', replying: true, feedback: { open: false } });
    expect(run(skipped, completed(question)).feedback.open).toBe(false);
    expect(run(skipped, completed()).feedback.open).toBe(true);
  });

  it('opens when the tutor fails: no reply, so no question is open', () => {
    const failed = run(turn(turn(listening(), 1), 2), utterance('Question 3', 1003), {
      type: 'chat_failed',
      conversationId: ID,
    });
    expect(failed).toMatchObject({ status: 'listening', replying: false, feedback: { open: true } });
  });

  it('does not open for a learner who never answers, and asks in the next conversation instead', () => {
    // Every reply asks; the learner moves on each time, or says nothing: no pause, no dialog.
    let state = listening();
    for (let n = 1; n <= 6; n += 1) state = turn(state, n, question);
    expect(state.feedback).toEqual({ open: false, done: false, sending: false });
    // Ended while waiting: not done, so a later conversation on the page may still ask, at its own pause.
    state = run(state, { type: 'ended' });
    expect(state.feedback).toEqual({ open: false, done: false, sending: false });
    state = run(state, { type: 'started', conversationId: ID }, reply(), completed(), finished);
    state = turn(turn(state, 1, question), 2, question);
    expect(turn(state, 3).feedback.open).toBe(true);
  });

  it('Submit is disabled until both ratings are at least 1, and while sending', () => {
    expect(canSubmitFeedback(0, 0, false)).toBe(false);
    expect(canSubmitFeedback(3, 0, false)).toBe(false);
    expect(canSubmitFeedback(0, 4, false)).toBe(false);
    expect(canSubmitFeedback(1, 1, false)).toBe(true);
    expect(canSubmitFeedback(5, 5, false)).toBe(true);
    expect(canSubmitFeedback(5, 5, true)).toBe(false);
    expect(canSubmitFeedback(6, 5, false)).toBe(false);
  });
});

describe('what is sent and spoken', () => {
  const messages: ChatMessage[] = [
    { id: 1, text: 'Hi, I am Astro.', sender: 'astro' },
    { id: 2, text: 'Show me Saturn', sender: 'user' },
    { id: 3, text: 'Here is **Saturn**.', sender: 'astro' },
    { id: 'loading-4', text: 'Saturn', sender: 'astro', isLoading: true },
    { id: 5, text: 'Jupiter', sender: 'astro', imageUrl: '/images/j.svg' },
  ];

  it('maps user to user and astro to assistant, leaving pictures and placeholders out', () => {
    expect(chatHistoryOf(messages)).toEqual([
      { role: 'assistant', content: 'Hi, I am Astro.' },
      { role: 'user', content: 'Show me Saturn' },
      { role: 'assistant', content: 'Here is **Saturn**.' },
    ]);
  });

  it('keeps the history within the API limits, most recent turns last', () => {
    const many: ChatMessage[] = Array.from({ length: CHAT_HISTORY_MAX_TURNS + 10 }, (_, index) => ({
      id: index + 1,
      text: index === CHAT_HISTORY_MAX_TURNS + 9 ? 'x'.repeat(CHAT_TURN_MAX_CHARS + 5) : `turn ${index}`,
      sender: index % 2 === 0 ? 'user' : 'astro',
    }));
    const history = chatHistoryOf(many);
    expect(history).toHaveLength(CHAT_HISTORY_MAX_TURNS);
    expect(history[0]?.content).toBe('turn 10');
    expect(history.at(-1)?.content).toHaveLength(CHAT_TURN_MAX_CHARS);
  });

  it('sends the whole transcript with feedback, capped to the API limits', () => {
    expect(feedbackHistoryOf(messages)).toEqual(messages);
    const many: ChatMessage[] = Array.from({ length: FEEDBACK_HISTORY_MAX_MESSAGES + 1 }, (_, index) => ({
      id: index + 1,
      text: 't',
      sender: 'user',
    }));
    expect(feedbackHistoryOf(many)[0]?.id).toBe(2);
    const huge: ChatMessage = {
      id: 9,
      text: 'pic',
      sender: 'astro',
      imageUrl: `data:image/png;base64,${'A'.repeat(5000)}`,
    };
    expect(feedbackHistoryOf([huge])[0]).toEqual({ id: 9, text: 'pic', sender: 'astro' });
  });
});

describe('streamed replies and Replay', () => {
  it('grows a reply in place in any status, and takes which tutor answered at its end', () => {
    const speaking = run(started(), reply('Hel', 100));
    const grown = run(speaking, { type: 'reply_grew', id: 100, text: 'Hello there.' });
    expect(grown.messages.at(-1)?.text).toBe('Hello there.');
    // After Skip (listening) the rest of the stream still shows.
    const skipped = run(grown, finished, { type: 'reply_grew', id: 100, text: 'Hello there. More.' });
    expect(skipped).toMatchObject({ status: 'listening' });
    expect(skipped.messages.at(-1)?.text).toBe('Hello there. More.');
    expect(run(skipped, { type: 'reply_grew', id: 100, offlineTutor: true }).offlineTutor).toBe(true);
    // …and why: a spending limit, until a reply comes without one (docs/behaviour.md §12.19).
    const capped = run(skipped, { type: 'reply_grew', id: 100, offlineTutor: true, spendLimit: 'day' });
    expect(capped.spendLimit).toBe('day');
    expect(run(capped, { type: 'reply_grew', id: 100, text: 'More.' }).spendLimit).toBe('day');
    expect(
      run(capped, { type: 'reply_grew', id: 100, offlineTutor: false, spendLimit: null }).spendLimit,
    ).toBeNull();
    expect(run(skipped, { type: 'reply_grew', id: 999, text: 'x' })).toBe(skipped);
  });

  it('adds a picture placeholder for the current conversation only', () => {
    const state = run(started(), reply('Look at Saturn.', 100), {
      type: 'picture_requested',
      conversationId: ID,
      loadingId: 'loading-1',
      prompt: 'Saturn',
    });
    expect(state.messages.at(-1)).toEqual({
      id: 'loading-1',
      text: 'Saturn',
      sender: 'astro',
      isLoading: true,
    });
    const other = run(started(), {
      type: 'picture_requested',
      conversationId: 'x',
      loadingId: 'l',
      prompt: 'p',
    });
    expect(other.messages).toEqual([]);
  });

  it('Replay starts speaking only while listening with a reply to replay', () => {
    expect(run(listening(), { type: 'replay_started', conversationId: ID }).status).toBe('speaking');
    const speaking = run(started(), reply());
    expect(run(speaking, { type: 'replay_started', conversationId: ID })).toBe(speaking);
    const noReply = run(started(), { type: 'chat_failed', conversationId: ID });
    expect(run(noReply, { type: 'replay_started', conversationId: ID })).toBe(noReply);
  });

  it("finds Astro's last reply in words, passing over pictures and placeholders", () => {
    const messages: ChatMessage[] = [
      { id: 1, text: 'Hi', sender: 'user' },
      { id: 2, text: 'The Sun is a star.', sender: 'astro' },
      { id: 3, text: 'A picture of the Sun', sender: 'astro', imageUrl: '/images/1.svg' },
      { id: 'loading-4', text: 'Another', sender: 'astro', isLoading: true },
    ];
    expect(lastReplyText(messages)).toBe('The Sun is a star.');
    expect(lastReplyText(messages.slice(0, 1))).toBe(null);
  });
});

describe('teaching in the reducer (docs/behaviour.md §17)', () => {
  const checked = (check: Check, conversationId = ID): ConversationAction => ({
    type: 'reply_completed',
    conversationId,
    check,
  });
  const correct: Check = { type: 'answer', correct: true };

  it('starts at the default level; the level changes only while no conversation is active', () => {
    expect(initialState.level).toBe(DEFAULT_LEVEL);
    const chosen = run(initialState, { type: 'level_selected', level: 'child' });
    expect(chosen.level).toBe('child');
    expect(run(started(chosen), { type: 'level_selected', level: 'adult' }).level).toBe('child');
  });

  it('counts correct answers of the current conversation only, and resets them at Start', () => {
    const two = run(
      listening(),
      checked(correct),
      checked({ type: 'answer', correct: false }),
      checked(correct),
    );
    expect(two.stars).toBe(2);
    expect(run(two, checked(correct, 'another conversation')).stars).toBe(2);
    const ended = run(two, { type: 'ended' });
    expect(run(ended, checked(correct)).stars).toBe(2);
    expect(started(ended).stars).toBe(0);
  });

  it('holds a check question open until the learner answers, by voice or typing, or the conversation ends', () => {
    const asked = run(listening(), checked({ type: 'question' }));
    expect(asked.checkOpen).toBe(true);
    expect(run(asked, utterance('   ', 7)).checkOpen).toBe(true);
    expect(run(asked, utterance('Jupiter', 7)).checkOpen).toBe(false);
    expect(run(asked, { type: 'ended' }).checkOpen).toBe(false);
    expect(run(asked, checked(correct, 'another conversation')).checkOpen).toBe(true);
  });

  it('names the reply holding the open question, passing over the picture after it, for the transcript (§2.6)', () => {
    const lesson = run(
      listening(),
      utterance('Show me Saturn', 7),
      reply('Saturn has rings. What are they made of?', 8),
      { type: 'picture_requested', conversationId: ID, loadingId: 'loading-9', prompt: 'Saturn' },
    );
    expect(openQuestionId(lesson)).toBe(null);
    const asked = run(lesson, checked({ type: 'question' }));
    expect(openQuestionId(asked)).toBe(8);
    const drawn = run(asked, { type: 'picture_ready', loadingId: 'loading-9', id: 10, imageUrl: '/s.svg' });
    expect(openQuestionId(drawn)).toBe(8);
    expect(openQuestionId(run(drawn, finished, utterance('Ice', 11)))).toBe(null);
  });

  it('opens think time only after a reply that ends with a check question (§17.5)', () => {
    const answered = run(listening(), checked({ type: 'question' }), utterance('Mars', 7));
    expect(answered.checkOpen).toBe(false);
    // The hint and the question again, a quiz's next question: the judgement asks again.
    for (const correctly of [true, false]) {
      const askedAgain = checked({ type: 'answer', correct: correctly, openQuestion: true });
      expect(run(answered, askedAgain).checkOpen).toBe(true);
    }
    // A right answer followed by an offer, the answer revealed, a quiz's score: nothing is open.
    expect(run(answered, checked(correct)).checkOpen).toBe(false);
    expect(run(answered, checked({ type: 'answer', correct: false })).checkOpen).toBe(false);
    // A reply without a check leaves it closed.
    expect(run(answered, completed()).checkOpen).toBe(false);
  });
});
