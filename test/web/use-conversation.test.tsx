// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConversationDeps } from '#web/conversation/controller';
import * as speechText from '#web/conversation/speech-text';
import { useConversation } from '#web/conversation/use-conversation';
import type { SpeechEngine } from '#web/speech/engine';

/** An engine that records whether it is listening and whether it was released. */
function recordingEngine() {
  const calls: string[] = [];
  const engine: SpeechEngine = {
    kind: 'browser',
    canListen: true,
    startListening: async () => void calls.push('listen'),
    stopListening: async () => void calls.push('stop'),
    speak: () => new Promise<void>(() => undefined),
    setSpeed: () => undefined,
    setThinkTime: () => undefined,
    stopSpeaking: () => undefined,
    dispose: () => void calls.push('dispose'),
  };
  return { engine, calls };
}

function deps(engine: SpeechEngine): () => ConversationDeps {
  return () => ({
    chat: async () => ({ response: 'Hello!', offlineTutor: true }),
    generateImage: async () => ({ imageUrl: '/images/a.svg' }),
    sendFeedback: async () => undefined,
    createEngine: async () => engine,
    loadSpeechText: async () => speechText,
    createBrowserEngine: async () => engine,
    unlockAudio: () => undefined,
    newConversationId: () => '6f1c0a3e-8d1b-4c0e-9a55-0b2d3c4e5f60',
  });
}

describe('useConversation', () => {
  it('re-renders with each state change the controller makes', async () => {
    const { engine } = recordingEngine();
    const { result } = renderHook(() => useConversation(deps(engine)));
    expect(result.current.state.status).toBe('idle');
    await act(async () => result.current.controller.start());
    expect(result.current.state).toMatchObject({ active: true, status: 'speaking', engine: 'browser' });
    expect(result.current.state.messages).toEqual([
      expect.objectContaining({ text: 'Hello!', sender: 'astro' }),
    ]);
  });

  it('stops and releases the speech engine when the component unmounts', async () => {
    const { engine, calls } = recordingEngine();
    const { result, unmount } = renderHook(() => useConversation(deps(engine)));
    await act(async () => result.current.controller.start());
    expect(calls).toEqual(['listen']);
    unmount();
    expect(calls).toEqual(['listen', 'dispose']);
  });
});
