import { describe, it } from 'vitest';
import type { Locale } from '#contract/languages';
import { checkEveryState, checkIdleInEveryLanguage, longestLanguage, PHONE_HEIGHT } from './support/layout';
import { installSpeechFakes } from './support/speech-fakes';
import { openPhoneFrame, useWebKitApp, type WebKitApp } from './support/webkit';
import type { LayoutStage } from './support/layout';

// The phone layout in WebKit (support/layout.ts): the app in a same-origin frame 320, 390 and 430 px wide
// (MiniBrowser's window is never that narrow), with the scripted speech fakes installed once it has
// loaded, so each state of the controls row can be held while it is measured.
const app = useWebKitApp();

async function phoneStage(webkit: WebKitApp, locale: Locale): Promise<LayoutStage> {
  const frame = await openPhoneFrame(webkit, { width: 390, height: PHONE_HEIGHT });
  await webkit.session.evaluate(installSpeechFakes);
  await webkit.session.evaluate((value: string) => {
    const select = document.querySelector<HTMLSelectElement>('.language-field select');
    if (!select) throw new Error('no language select');
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }, locale);
  return {
    ui: frame.ui,
    evaluate: (fn, ...args) => webkit.session.evaluate(fn, ...args),
    setWidth: frame.setWidth,
  };
}

describe('the phone layout in WebKit', () => {
  it.each(['en-US', longestLanguage()] as Locale[])(
    '%s: nothing overlaps, sticks out or is cut, in any state of the controls',
    async (locale) => {
      await checkEveryState(await phoneStage(app, locale), locale);
    },
  );

  it('nothing overlaps, sticks out or is cut on the idle screen, in every language', async () => {
    await checkIdleInEveryLanguage(await phoneStage(app, 'en-US'));
  });
});
