import { describe, it } from 'vitest';
import type { Locale } from '#contract/languages';
import { openApp, playwrightUi, useTestApp } from './support/app';
import {
  checkEveryState,
  checkIdleInEveryLanguage,
  longestLanguage,
  PHONE_HEIGHT,
  type LayoutStage,
} from './support/layout';
import type { Page } from 'playwright-core';

// The phone layout in Chromium: no control overlaps another, sticks out or is cut, at 320, 390 and 430 px,
// in every state of the controls row (support/layout.ts). The same check runs in WebKit
// (webkit-layout.e2e.ts).
const app = useTestApp();

function stageOf(page: Page): LayoutStage {
  return {
    ui: playwrightUi(page),
    // A string, evaluated by the browser's protocol: the page's own policy allows no eval.
    evaluate: (fn, ...args) =>
      page.evaluate(`(${fn.toString()}).apply(null, ${JSON.stringify(args)})`) as Promise<never>,
    setWidth: (width) => page.setViewportSize({ width, height: PHONE_HEIGHT }),
  };
}

describe('the phone layout in Chromium', () => {
  it.each(['en-US', longestLanguage()] as Locale[])(
    '%s: nothing overlaps, sticks out or is cut, in any state of the controls',
    async (locale) => {
      const { context, page } = await openApp(app, { viewport: { width: 390, height: PHONE_HEIGHT } });
      await page.getByLabel('Language').selectOption(locale);
      await checkEveryState(stageOf(page), locale);
      await context.close();
    },
  );

  it('nothing overlaps, sticks out or is cut on the idle screen, in every language', async () => {
    const { context, page } = await openApp(app, { viewport: { width: 390, height: PHONE_HEIGHT } });
    await checkIdleInEveryLanguage(stageOf(page));
    await context.close();
  });
});
