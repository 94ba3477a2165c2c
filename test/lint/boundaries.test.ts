import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layers and boundaries of eslint.config.js (docs/architecture.md, "Layers"), checked by linting small
 * snippets as if they sat in each folder: every forbidden import is reported by the rule that owns it, and
 * an allowed one in the same folder is reported by none of them (so a rule that reports everything fails
 * too). The layer rules work on resolved paths, so every import here names a file that exists.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Which files a layer may import, on the resolved path. */
const LAYERS = 'import-x/no-restricted-paths';
/** A module that imports itself back at run time, through any number of others. */
const CYCLES = 'import-x/no-cycle';
/** What a path cannot say: the spelling of an import, and type-only imports of the schemas. */
const TEXT = 'no-restricted-imports';
type Rule = typeof LAYERS | typeof CYCLES | typeof TEXT;
const BOUNDARY_RULES: readonly string[] = [LAYERS, CYCLES, TEXT];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: `${repoRoot}eslint.config.js` });
});

interface Verdict {
  /** The boundary rules that reported the import. */
  readonly reportedBy: readonly string[];
  /** Whether the rule is on for that file at all: an allowed import proves nothing where it is off. */
  readonly ruleIsOn: boolean;
}

async function lintImport(filePath: string, statement: string, rule: Rule): Promise<Verdict> {
  const [result] = await eslint.lintText(`${statement}\n`, { filePath: `${repoRoot}${filePath}` });
  if (!result) throw new Error('ESLint returned no result');
  // A message without a rule is ESLint saying the file is ignored or did not parse.
  expect(result.messages.filter((message) => message.ruleId === null)).toEqual([]);
  const config = (await eslint.calculateConfigForFile(`${repoRoot}${filePath}`)) as {
    rules?: Record<string, unknown>;
  };
  const setting = config.rules?.[rule];
  return {
    reportedBy: result.messages
      .map((message) => message.ruleId ?? '')
      .filter((ruleId) => BOUNDARY_RULES.includes(ruleId)),
    ruleIsOn: Array.isArray(setting) && (setting[0] === 2 || setting[0] === 'error'),
  };
}

const valueImport = (source: string) => `import { thing } from '${source}';\nexport const used = thing;`;
const typeImport = (source: string) => `import type { Thing } from '${source}';\nexport type Used = Thing;`;
const reExport = (source: string) => `export { thing } from '${source}';`;
const lazyImport = (source: string) => `export const later = () => import('${source}');`;

type Case = readonly [name: string, rule: Rule, filePath: string, statement: string];

const FORBIDDEN: readonly Case[] = [
  // The web app: app → components → conversation → speech → api → lib; i18n for the screen only.
  [
    'the web’s api layer imports a component',
    LAYERS,
    'web/src/api/fixture.ts',
    valueImport('../components/composer'),
  ],
  [
    'conversation logic imports the app root',
    LAYERS,
    'web/src/conversation/fixture.ts',
    valueImport('../app/app'),
  ],
  ['a component imports the app root', LAYERS, 'web/src/components/fixture.tsx', valueImport('../app/app')],
  ['the app root imports the entry point', LAYERS, 'web/src/app/fixture.ts', valueImport('../main')],
  [
    'conversation logic imports a component',
    LAYERS,
    'web/src/conversation/fixture.ts',
    valueImport('../components/star-rating'),
  ],
  [
    'conversation logic imports the UI strings',
    LAYERS,
    'web/src/conversation/fixture.ts',
    valueImport('../i18n/messages'),
  ],
  [
    'speech imports conversation logic',
    LAYERS,
    'web/src/speech/fixture.ts',
    valueImport('../conversation/sentences'),
  ],
  [
    'speech lazily imports conversation logic',
    LAYERS,
    'web/src/speech/fixture.ts',
    lazyImport('../conversation/sentences'),
  ],
  ['the api layer imports speech’s types', LAYERS, 'web/src/api/fixture.ts', typeImport('../speech/engine')],
  [
    'the api layer re-exports conversation logic',
    LAYERS,
    'web/src/api/fixture.ts',
    reExport('../conversation/state'),
  ],
  [
    'the UI strings import conversation logic',
    LAYERS,
    'web/src/i18n/fixture.ts',
    typeImport('../conversation/state'),
  ],
  [
    'the web’s bottom floor imports the api layer',
    LAYERS,
    'web/src/lib/fixture.ts',
    valueImport('../api/http'),
  ],
  [
    'the web’s bottom floor imports the UI strings',
    LAYERS,
    'web/src/lib/fixture.ts',
    valueImport('../i18n/messages'),
  ],
  // The web sees only the contract of lambdas/, and never infra/.
  [
    'the web imports a service',
    LAYERS,
    'web/src/app/fixture.ts',
    valueImport('../../../lambdas/tutor/tutor'),
  ],
  [
    'the web imports a service’s types',
    LAYERS,
    'web/src/app/fixture.ts',
    typeImport('../../../lambdas/tutor/tutor'),
  ],
  [
    'the web imports the local server',
    LAYERS,
    'web/src/fixture.tsx',
    valueImport('../../lambdas/local/site-headers'),
  ],
  ['the web imports infra', LAYERS, 'web/src/lib/fixture.ts', valueImport('../../../infra/context')],
  [
    'the web imports the contract by a relative path',
    TEXT,
    'web/src/api/fixture.ts',
    valueImport('../../../lambdas/contract/limits'),
  ],
  [
    'the web imports the contract by the tests’ alias',
    TEXT,
    'web/src/api/fixture.ts',
    valueImport('#lambdas/contract/limits'),
  ],
  [
    'the web imports the schemas’ values (zod)',
    TEXT,
    'web/src/api/fixture.ts',
    valueImport('#contract/schemas'),
  ],
  ['the web imports zod', TEXT, 'web/src/lib/fixture.ts', valueImport('zod')],
  ['the web imports an AWS SDK client', TEXT, 'web/src/api/fixture.ts', valueImport('@aws-sdk/client-s3')],
  // The contract imports nothing of ours.
  [
    'a contract file imports a handler',
    LAYERS,
    'lambdas/contract/fixture.ts',
    valueImport('../chat/handler'),
  ],
  ['a contract file imports the log', LAYERS, 'lambdas/contract/fixture.ts', valueImport('../lib/log')],
  [
    'a contract file imports the configuration’s types',
    LAYERS,
    'lambdas/contract/fixture.ts',
    typeImport('../config'),
  ],
  [
    'a contract file imports the web',
    LAYERS,
    'lambdas/contract/fixture.ts',
    valueImport('../../web/src/lib/log'),
  ],
  // lambdas: local → handlers → services → upstream/http/store → lib (config) → contract.
  ['one handler imports another', LAYERS, 'lambdas/feedback/fixture.ts', valueImport('../chat/handler')],
  [
    'a handler imports another’s module',
    LAYERS,
    'lambdas/generate-image/fixture.ts',
    valueImport('../chat/chat-response'),
  ],
  [
    'a handler imports the handler wiring',
    LAYERS,
    'lambdas/speech-token/fixture.ts',
    valueImport('../endpoint-handlers'),
  ],
  [
    'a handler imports the local server',
    LAYERS,
    'lambdas/chat/fixture.ts',
    valueImport('../local/local-api'),
  ],
  ['the registry imports a handler', LAYERS, 'lambdas/endpoints.ts', valueImport('./feedback/handler')],
  ['the registry imports the configuration', LAYERS, 'lambdas/endpoints.ts', typeImport('./config')],
  [
    'the handler wiring imports the local server',
    LAYERS,
    'lambdas/endpoint-handlers.ts',
    valueImport('./local/server'),
  ],
  [
    'the tutor imports the picture makers',
    LAYERS,
    'lambdas/tutor/fixture.ts',
    valueImport('../pictures/picture-maker'),
  ],
  [
    'the offline tutor imports the picture makers’ types',
    LAYERS,
    'lambdas/tutor/offline/fixture.ts',
    typeImport('../../pictures/picture-maker'),
  ],
  [
    'the tutor re-exports the picture makers',
    LAYERS,
    'lambdas/tutor/fixture.ts',
    reExport('../pictures/picture-bytes'),
  ],
  [
    'the picture makers import the tutor',
    LAYERS,
    'lambdas/pictures/fixture.ts',
    valueImport('../tutor/conversation'),
  ],
  [
    'the picture makers import the tutor’s types',
    LAYERS,
    'lambdas/pictures/fixture.ts',
    typeImport('../tutor/tutor'),
  ],
  ['one service imports another', LAYERS, 'lambdas/speech/fixture.ts', valueImport('../trust/trust')],
  // The spend guard is a service: it shares the token usage with the tutor through upstream/, not directly.
  [
    'the spend guard imports the tutor’s types',
    LAYERS,
    'lambdas/spend/fixture.ts',
    typeImport('../tutor/tutor'),
  ],
  ['the spend guard imports a handler', LAYERS, 'lambdas/spend/fixture.ts', valueImport('../chat/handler')],
  ['the configuration imports the spend guard', LAYERS, 'lambdas/config.ts', valueImport('./spend/prices')],
  ['a service imports a handler', LAYERS, 'lambdas/tutor/fixture.ts', valueImport('../chat/chat-response')],
  [
    'a service imports the endpoint registry',
    LAYERS,
    'lambdas/trust/fixture.ts',
    valueImport('../endpoints'),
  ],
  [
    'the upstream code imports the HTTP layer',
    LAYERS,
    'lambdas/upstream/fixture.ts',
    valueImport('../http/endpoint'),
  ],
  [
    'the store imports the upstream code',
    LAYERS,
    'lambdas/store/fixture.ts',
    valueImport('../upstream/deadline'),
  ],
  ['the HTTP layer imports a service', LAYERS, 'lambdas/http/fixture.ts', valueImport('../tutor/tutor')],
  [
    'the lambdas’ bottom floor imports the HTTP layer',
    LAYERS,
    'lambdas/lib/fixture.ts',
    valueImport('../http/endpoint'),
  ],
  [
    'the lambdas’ bottom floor imports the configuration',
    LAYERS,
    'lambdas/lib/fixture.ts',
    valueImport('../config'),
  ],
  ['the configuration imports the HTTP layer', LAYERS, 'lambdas/config.ts', valueImport('./http/response')],
  // Nothing at runtime imports infra/.
  ['the local server imports infra', LAYERS, 'lambdas/local/fixture.ts', valueImport('../../infra/context')],
  ['a top-level lambdas module imports infra', LAYERS, 'lambdas/fixture.ts', valueImport('../infra/context')],
  ['the tutor imports infra', LAYERS, 'lambdas/tutor/fixture.ts', valueImport('../../infra/constructs/api')],
  [
    'the picture makers import infra',
    LAYERS,
    'lambdas/pictures/fixture.ts',
    typeImport('../../infra/astro-stack'),
  ],
  // Nothing that ships imports the tests.
  ['a service imports a test fake', LAYERS, 'lambdas/tutor/fixture.ts', valueImport('#support/openai-fake')],
  [
    'the web imports a test helper',
    LAYERS,
    'web/src/speech/fixture.ts',
    valueImport('../../../test/web/scripted-speech-sdk'),
  ],
  [
    'the stack imports a test helper',
    LAYERS,
    'infra/constructs/fixture.ts',
    valueImport('../../test/infra/synth'),
  ],
  // Cycles, even inside one layer.
  [
    'sentence cutting imports the controller that imports it',
    CYCLES,
    'web/src/conversation/sentences.ts',
    valueImport('./controller'),
  ],
  [
    'the system prompt imports the history that imports it',
    CYCLES,
    'lambdas/tutor/system-prompt.ts',
    valueImport('./conversation'),
  ],
];

const ALLOWED: readonly Case[] = [
  ['the app root imports a component', LAYERS, 'web/src/app/fixture.ts', valueImport('../components/header')],
  [
    'a component imports conversation logic',
    LAYERS,
    'web/src/components/fixture.tsx',
    valueImport('../conversation/state'),
  ],
  [
    'a component imports the UI strings',
    LAYERS,
    'web/src/components/fixture.tsx',
    valueImport('../i18n/messages'),
  ],
  [
    'a component imports speech’s types',
    LAYERS,
    'web/src/components/fixture.tsx',
    typeImport('../speech/engine'),
  ],
  [
    'conversation logic imports speech',
    LAYERS,
    'web/src/conversation/fixture.ts',
    valueImport('../speech/engine'),
  ],
  [
    'conversation logic imports the api layer',
    LAYERS,
    'web/src/conversation/fixture.ts',
    valueImport('../api/chat'),
  ],
  ['speech imports the api layer', LAYERS, 'web/src/speech/fixture.ts', valueImport('../api/speech-token')],
  ['the api layer imports the settings', LAYERS, 'web/src/api/fixture.ts', valueImport('../lib/env')],
  ['the UI strings import the bottom floor', LAYERS, 'web/src/i18n/fixture.ts', valueImport('../lib/log')],
  [
    'the web’s bottom floor imports the contract by its alias',
    LAYERS,
    'web/src/lib/fixture.ts',
    valueImport('#contract/limits'),
  ],
  [
    'the web imports the contract by its alias',
    TEXT,
    'web/src/api/fixture.ts',
    valueImport('#contract/limits'),
  ],
  ['the web imports the schemas’ types', TEXT, 'web/src/api/fixture.ts', typeImport('#contract/schemas')],
  ['a contract file imports another', LAYERS, 'lambdas/contract/fixture.ts', valueImport('./limits')],
  [
    'the local server imports the security headers from the contract',
    LAYERS,
    'lambdas/local/fixture.ts',
    valueImport('../contract/security-headers'),
  ],
  [
    'the local server imports the handler wiring',
    LAYERS,
    'lambdas/local/fixture.ts',
    valueImport('../endpoint-handlers'),
  ],
  [
    'the handler wiring imports a handler',
    LAYERS,
    'lambdas/endpoint-handlers.ts',
    valueImport('./speech-token/handler'),
  ],
  [
    'a handler imports the endpoint registry',
    LAYERS,
    'lambdas/feedback/fixture.ts',
    valueImport('../endpoints'),
  ],
  [
    'the chat handler imports the tutor it serves',
    LAYERS,
    'lambdas/chat/fixture.ts',
    valueImport('../tutor/tutor'),
  ],
  [
    'the image handler imports the picture makers',
    LAYERS,
    'lambdas/generate-image/fixture.ts',
    valueImport('../pictures/picture-store'),
  ],
  [
    'the feedback handler imports the store',
    LAYERS,
    'lambdas/feedback/fixture.ts',
    valueImport('../store/feedback-store'),
  ],
  [
    'the tutor imports the shared upstream code',
    LAYERS,
    'lambdas/tutor/fixture.ts',
    valueImport('../upstream/deadline'),
  ],
  [
    'the picture makers import the shared upstream code',
    LAYERS,
    'lambdas/pictures/fixture.ts',
    valueImport('../upstream/openai-http'),
  ],
  ['a service imports the log', LAYERS, 'lambdas/trust/fixture.ts', valueImport('../lib/log')],
  [
    'a handler imports the spend guard',
    LAYERS,
    'lambdas/chat/fixture.ts',
    valueImport('../spend/spend-guard'),
  ],
  [
    'the spend guard imports the shared token usage and deadlines',
    LAYERS,
    'lambdas/spend/fixture.ts',
    valueImport('../upstream/token-usage'),
  ],
  ['the spend guard imports the configuration', LAYERS, 'lambdas/spend/fixture.ts', valueImport('../config')],
  ['a service imports the configuration', LAYERS, 'lambdas/speech/fixture.ts', valueImport('../config')],
  [
    'the upstream code imports the typed error',
    LAYERS,
    'lambdas/upstream/fixture.ts',
    valueImport('../lib/api-error'),
  ],
  ['the HTTP layer imports the configuration', LAYERS, 'lambdas/http/fixture.ts', valueImport('../config')],
  ['the store imports the contract', LAYERS, 'lambdas/store/fixture.ts', valueImport('../contract/schemas')],
  [
    'the lambdas’ bottom floor imports the contract',
    LAYERS,
    'lambdas/lib/fixture.ts',
    valueImport('../contract/errors'),
  ],
  ['the configuration imports the log', LAYERS, 'lambdas/config.ts', valueImport('./lib/log')],
  ['the registry imports the contract', LAYERS, 'lambdas/endpoints.ts', valueImport('./contract/routes')],
  [
    'sentence cutting imports a module that does not import it back',
    CYCLES,
    'web/src/conversation/sentences.ts',
    valueImport('./message-id'),
  ],
  [
    'a type-only import closes a loop (nothing loops at run time)',
    CYCLES,
    'web/src/conversation/sentences.ts',
    typeImport('./controller'),
  ],
];

describe('layers and import boundaries', () => {
  it.each(FORBIDDEN)('report it when %s (%s)', async (_name, rule, filePath, statement) => {
    expect((await lintImport(filePath, statement, rule)).reportedBy).toContain(rule);
  });

  it.each(ALLOWED)('allow it when %s (%s)', async (_name, rule, filePath, statement) => {
    const verdict = await lintImport(filePath, statement, rule);
    expect(verdict.ruleIsOn).toBe(true);
    expect(verdict.reportedBy).toEqual([]);
  });
});
