import type { FeedbackRequest } from '#contract/schemas';

/** A valid feedback body, as the web app sends it after three learner messages. */
export function feedbackBody(overrides: Partial<FeedbackRequest> = {}): FeedbackRequest {
  return {
    helpfulness: 5,
    clarity: 4,
    suggestion: 'More pictures of nebulae, please.',
    conversationId: crypto.randomUUID(),
    language: 'en-US',
    chatHistory: [
      { id: 1763700000000, text: 'Hello! I am Astro. What shall we explore?', sender: 'astro' },
      { id: 1763700001000, text: 'Why is Mars red?', sender: 'user' },
      { id: 1763700002000, text: 'Iron oxide dust covers its surface.', sender: 'astro' },
      { id: 'loading-1763700003000', text: '', sender: 'astro', isLoading: true },
      {
        id: 1763700004000,
        text: 'A picture of Mars',
        sender: 'astro',
        imageUrl: '/images/0b6f3f0e-7f1c-4a53-9a43-3f1f3f1f3f1f.png',
      },
      { id: 1763700005000, text: 'What about Venus?', sender: 'user' },
      { id: 1763700006000, text: 'Thanks!', sender: 'user' },
    ],
    ...overrides,
  };
}
