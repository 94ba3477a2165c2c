import { describe, expect, it } from 'vitest';
import {
  CHAT_HISTORY_MAX_TURNS,
  CHAT_TURN_MAX_CHARS,
  CHAT_USER_MESSAGE_MAX_CHARS,
  FEEDBACK_HISTORY_MAX_MESSAGES,
  FEEDBACK_SUGGESTION_MAX_CHARS,
  IMAGE_PROMPT_MAX_CHARS,
} from '#contract/limits';
import {
  chatRequestSchema,
  chatResponseSchema,
  feedbackRequestSchema,
  generateImageRequestSchema,
  isBlank,
  speechTokenRequestSchema,
} from '#contract/schemas';
import { TEST_CONVERSATION_ID } from '#support/trust';

const validChat = {
  userMessage: 'What is a comet?',
  language: 'en-US',
  chatHistory: [],
  conversationId: TEST_CONVERSATION_ID,
};
const validFeedback = {
  helpfulness: 5,
  clarity: 4,
  suggestion: '',
  conversationId: '6f1c2f8e-1d2a-4f7b-9c3e-2b8a1d4e5f60',
  language: 'ar-SA',
  chatHistory: [
    { id: 1732200000000, text: 'Hello', sender: 'astro' },
    { id: 'loading-1732200000001', text: '', sender: 'astro', isLoading: true },
    { id: 1732200000002, text: 'A sketch', sender: 'astro', imageUrl: '/images/a.svg' },
  ],
};

describe('the chat request', () => {
  it('accepts a message, a locale and a history of user and assistant turns', () => {
    const history = [
      { role: 'assistant', content: 'Hi, I am Astro.' },
      { role: 'user', content: 'Hello' },
    ];
    expect(chatRequestSchema.safeParse({ ...validChat, chatHistory: history }).success).toBe(true);
  });

  it('holds the message to 1..2000 characters', () => {
    expect(chatRequestSchema.safeParse({ ...validChat, userMessage: '' }).success).toBe(false);
    const longest = 'a'.repeat(CHAT_USER_MESSAGE_MAX_CHARS);
    expect(chatRequestSchema.safeParse({ ...validChat, userMessage: longest }).success).toBe(true);
    expect(chatRequestSchema.safeParse({ ...validChat, userMessage: `${longest}a` }).success).toBe(false);
  });

  it('refuses an unknown locale, an unknown role, an over-long turn and an over-long history', () => {
    expect(chatRequestSchema.safeParse({ ...validChat, language: 'en' }).success).toBe(false);
    const turn = (role: string, content = 'x') => ({ role, content });
    expect(chatRequestSchema.safeParse({ ...validChat, chatHistory: [turn('system')] }).success).toBe(false);
    const longTurn = turn('user', 'x'.repeat(CHAT_TURN_MAX_CHARS + 1));
    expect(chatRequestSchema.safeParse({ ...validChat, chatHistory: [longTurn] }).success).toBe(false);
    const history = Array.from({ length: CHAT_HISTORY_MAX_TURNS + 1 }, () => turn('user'));
    expect(chatRequestSchema.safeParse({ ...validChat, chatHistory: history }).success).toBe(false);
    expect(chatRequestSchema.safeParse({ ...validChat, chatHistory: history.slice(1) }).success).toBe(true);
  });
});

describe('the image request', () => {
  it('holds the prompt to 1..1000 characters', () => {
    expect(generateImageRequestSchema.safeParse({ prompt: 'a ringed planet' }).success).toBe(true);
    expect(generateImageRequestSchema.safeParse({ prompt: '' }).success).toBe(false);
    const tooLong = 'p'.repeat(IMAGE_PROMPT_MAX_CHARS + 1);
    expect(generateImageRequestSchema.safeParse({ prompt: tooLong }).success).toBe(false);
  });
});

describe('the feedback request', () => {
  it('accepts ratings, an empty suggestion and transcript messages as the web app keeps them', () => {
    expect(feedbackRequestSchema.safeParse(validFeedback).success).toBe(true);
  });

  it.each([0, 6, 2.5, '5'])('refuses the rating %s', (rating) => {
    expect(feedbackRequestSchema.safeParse({ ...validFeedback, helpfulness: rating }).success).toBe(false);
    expect(feedbackRequestSchema.safeParse({ ...validFeedback, clarity: rating }).success).toBe(false);
  });

  it('refuses a conversation id that is not a UUID', () => {
    expect(feedbackRequestSchema.safeParse({ ...validFeedback, conversationId: 'abc' }).success).toBe(false);
  });

  it('caps the suggestion and the transcript', () => {
    const suggestion = 's'.repeat(FEEDBACK_SUGGESTION_MAX_CHARS + 1);
    expect(feedbackRequestSchema.safeParse({ ...validFeedback, suggestion }).success).toBe(false);
    const message = { id: 1, text: 'x', sender: 'user' };
    const chatHistory = Array.from({ length: FEEDBACK_HISTORY_MAX_MESSAGES + 1 }, () => message);
    expect(feedbackRequestSchema.safeParse({ ...validFeedback, chatHistory }).success).toBe(false);
  });

  it('refuses a message from an unknown sender', () => {
    const chatHistory = [{ id: 1, text: 'x', sender: 'system' }];
    expect(feedbackRequestSchema.safeParse({ ...validFeedback, chatHistory }).success).toBe(false);
  });
});

describe('the speech token request', () => {
  it('takes no body or an empty object', () => {
    expect(speechTokenRequestSchema.safeParse(undefined).success).toBe(true);
    expect(speechTokenRequestSchema.safeParse({}).success).toBe(true);
  });
});

describe('trust and cost rules in the contract', () => {
  const withImage = (imageUrl: string) => ({
    ...validFeedback,
    chatHistory: [{ id: 1, text: 'A picture', sender: 'astro', imageUrl }],
  });

  it.each([
    '/images/abc.png',
    '/images/0123456789abcdef0123456789abcdef.svg',
    'https://cdn.example.org/a.png',
  ])('keeps a feedback imageUrl that is a same-origin path or https: %s', (imageUrl) => {
    expect(feedbackRequestSchema.safeParse(withImage(imageUrl)).success).toBe(true);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '//evil.example/a.png',
    '/\\evil.example/a.png',
    'http://evil.example/a.png',
    ' /images/a.png',
    'vbscript:msgbox(1)',
  ])('refuses a feedback imageUrl that could run or leave the site: %s', (imageUrl) => {
    expect(feedbackRequestSchema.safeParse(withImage(imageUrl)).success).toBe(false);
  });

  it('counts text of only invisible characters as blank', () => {
    expect(isBlank('\u200b\u200c\u200d\u2060\ufeff \t\n')).toBe(true);
    expect(isBlank('\u200bMars')).toBe(false);
    expect(isBlank('火星')).toBe(false);
  });

  it('takes a picture ticket with the prompt, and only a token-shaped one', () => {
    expect(generateImageRequestSchema.safeParse({ prompt: 'Mars', ticket: 'v1.abc.d-_e' }).success).toBe(
      true,
    );
    expect(generateImageRequestSchema.safeParse({ prompt: 'Mars', ticket: 'v1 <script>' }).success).toBe(
      false,
    );
  });

  it('takes a signature on history turns', () => {
    const turn = { role: 'assistant', content: 'Hi', signature: 'v1.abc' };
    expect(chatRequestSchema.safeParse({ ...validChat, chatHistory: [turn] }).success).toBe(true);
  });
});

describe('the teaching fields', () => {
  it('takes each level and no other', () => {
    for (const level of ['child', 'teen', 'adult']) {
      expect(chatRequestSchema.safeParse({ ...validChat, level }).success).toBe(true);
    }
    for (const level of ['Child', 'kid', '', 3, null]) {
      expect(chatRequestSchema.safeParse({ ...validChat, level }).success).toBe(false);
    }
    expect(chatRequestSchema.safeParse(validChat).success).toBe(true);
  });

  it('takes a check question or a judged answer, and nothing half-formed', () => {
    const reply = { response: 'Which planet is closest to the Sun?' };
    expect(chatResponseSchema.safeParse({ ...reply, check: { type: 'question' } }).success).toBe(true);
    expect(
      chatResponseSchema.safeParse({ ...reply, check: { type: 'answer', correct: false } }).success,
    ).toBe(true);
    expect(chatResponseSchema.safeParse({ ...reply, check: { type: 'answer' } }).success).toBe(false);
    expect(chatResponseSchema.safeParse({ ...reply, check: { type: 'quiz' } }).success).toBe(false);
  });

  it('takes starsEarned as a whole count from 0 up to the history limit', () => {
    for (const starsEarned of [0, 3, FEEDBACK_HISTORY_MAX_MESSAGES]) {
      expect(feedbackRequestSchema.safeParse({ ...validFeedback, starsEarned }).success).toBe(true);
    }
    for (const starsEarned of [-1, 1.5, FEEDBACK_HISTORY_MAX_MESSAGES + 1, '3']) {
      expect(feedbackRequestSchema.safeParse({ ...validFeedback, starsEarned }).success).toBe(false);
    }
  });
});
