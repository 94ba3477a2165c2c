import { describe, expect, it } from 'vitest';
import {
  holdSpeech,
  openApp,
  sayAndWait,
  setSpeechEnvironment,
  speech,
  speechLog,
  startConversation,
  typeAndWait,
  useTestApp,
  waitForStatus,
} from './support/app';

// The voice loop never leaves a learner stuck: Skip, recognition that heals itself, a refused
// microphone and a browser without voices, in Chromium with the browser's speech APIs scripted.
const app = useTestApp();

describe('Skip', () => {
  it('stops Astro mid-reply from the Skip control; the reply stays and the conversation listens again', async () => {
    const { context, page } = await openApp(app);
    await holdSpeech(page, true);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await waitForStatus(page, 'Speaking...');
    const skip = page.getByRole('button', { name: 'Skip' });
    await skip.waitFor();
    // docs/behaviour.md §2.11 stands: the End button stays disabled while speaking; Skip is the way out.
    expect(await page.getByRole('button', { name: 'End Conversation' }).isDisabled()).toBe(true);
    await skip.click();
    await waitForStatus(page, 'Listening...');
    expect(await skip.count()).toBe(0);
    expect(await page.locator('.message-astro').count()).toBe(1);
    expect(await page.evaluate(() => window.speechSynthesis.speaking)).toBe(false);
    await holdSpeech(page, false);
    await sayAndWait(page, 'What is a comet?');
    await context.close();
  });

  it('Escape does the same while Astro speaks', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    await holdSpeech(page, true);
    await speech(page, 'say', 'Tell me about Mars');
    await waitForStatus(page, 'Speaking...');
    await page.keyboard.press('Escape');
    await waitForStatus(page, 'Listening...');
    expect(await page.evaluate(() => window.speechSynthesis.speaking)).toBe(false);
    await context.close();
  });
});

describe('recognition that heals itself', () => {
  it('says Reconnecting while the recogniser is down, then listens and accepts a phrase again', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    const starts = async () =>
      (await speechLog(page)).recognition.filter((event) => event.event === 'start').length;
    const before = await starts();
    expect(await speech(page, 'failRecognition', 'network')).toBe(true);
    await waitForStatus(page, 'Reconnecting...');
    await page.getByText('Speech recognition is reconnecting… You can type meanwhile.').waitFor();
    // Typing still works while it is down.
    expect(await page.getByLabel('Type a message to Astro').isEnabled()).toBe(true);
    await waitForStatus(page, 'Listening...');
    expect(await starts()).toBe(before + 1);
    expect(await page.getByText('Speech recognition is reconnecting').count()).toBe(0);
    await sayAndWait(page, 'How hot is the Sun?');
    await context.close();
  });

  it('explains how to allow a refused microphone and points at typing, never a dead Listening', async () => {
    const { context, page } = await openApp(app);
    await setSpeechEnvironment(page, { refuseMicrophone: true });
    await startConversation(page);
    await page.getByText('Microphone access is blocked.', { exact: false }).waitFor();
    const starts = (await speechLog(page)).recognition.filter((event) => event.event === 'start');
    expect(starts).toHaveLength(1);
    await typeAndWait(page, 'What is a nebula?');
    await context.close();
  });
});

describe('a browser without speech voices', () => {
  it('shows replies without speaking them, listens again at once, and says why', async () => {
    const { context, page } = await openApp(app);
    await setSpeechEnvironment(page, { voices: false });
    await startConversation(page);
    await page
      .getByText("Your browser has no voice for this language: Astro's replies are shown, not spoken.")
      .waitFor();
    expect(await page.locator('.message-astro').count()).toBe(1);
    await typeAndWait(page, 'Why is the sky dark at night?');
    expect((await speechLog(page)).utterances).toEqual([]);
    await context.close();
  });
});

describe('speaking sentence by sentence', () => {
  it('speaks the greeting as its sentences, in order, and Replay speaks them again while listening', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    const greeting = await page.locator('.message-astro .bubble-text').first().innerText();
    const spoken = (await speechLog(page)).utterances.map((utterance) => utterance.text);
    expect(spoken.length).toBeGreaterThan(1);
    expect(spoken.join(' ')).toBe(greeting.replace(/\*/g, ''));
    await page.getByRole('button', { name: 'Replay' }).click();
    await waitForStatus(page, 'Listening...');
    const again = (await speechLog(page)).utterances.map((utterance) => utterance.text);
    expect(again).toEqual([...spoken, ...spoken]);
    await context.close();
  });

  it('cuts a Japanese reply at its own full stops', async () => {
    const { context, page } = await openApp(app);
    await page.getByLabel('Language').selectOption('ja-JP');
    await startConversation(page, '会話を始める', '聞いています...');
    const spoken = (await speechLog(page)).utterances.map((utterance) => utterance.text);
    expect(spoken.length).toBeGreaterThan(1);
    expect(spoken.every((sentence) => /[。！？?]$/.test(sentence))).toBe(true);
    await context.close();
  });
});
