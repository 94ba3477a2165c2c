import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import boundaries of eslint.config.js (issue 11, "Boundaries as lint"), checked by linting small
 * snippets as if they sat in each folder: every forbidden import is reported, and an allowed one in the
 * same folder is not (so a rule that reports everything fails too).
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const RULE = 'no-restricted-imports';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: `${repoRoot}eslint.config.js` });
});

interface Verdict {
  readonly reported: boolean;
  /** Whether the rule is on for that file at all: an allowed import proves nothing where it is off. */
  readonly ruleIsOn: boolean;
}

async function lintImport(filePath: string, statement: string): Promise<Verdict> {
  const [result] = await eslint.lintText(`${statement}\n`, { filePath: `${repoRoot}${filePath}` });
  if (!result) throw new Error('ESLint returned no result');
  // A message without a rule is ESLint saying the file is ignored or did not parse.
  expect(result.messages.filter((message) => message.ruleId === null)).toEqual([]);
  const config = (await eslint.calculateConfigForFile(`${repoRoot}${filePath}`)) as {
    rules?: Record<string, unknown>;
  };
  const setting = config.rules?.[RULE];
  return {
    reported: result.messages.some((message) => message.ruleId === RULE),
    ruleIsOn: Array.isArray(setting) && (setting[0] === 2 || setting[0] === 'error'),
  };
}

const valueImport = (source: string) => `import { thing } from '${source}';\nexport const used = thing;`;
const typeImport = (source: string) => `import type { Thing } from '${source}';\nexport type Used = Thing;`;
const reExport = (source: string) => `export { thing } from '${source}';`;

const FORBIDDEN: readonly (readonly [string, string, string])[] = [
  ['the web imports a service', 'web/src/app/fixture.ts', valueImport('../../../lambdas/tutor/tutor')],
  ['the web imports a service’s types', 'web/src/app/fixture.ts', typeImport('../../../lambdas/tutor/tutor')],
  [
    'the web imports the local server',
    'web/src/fixture.tsx',
    valueImport('../../lambdas/local/site-headers'),
  ],
  [
    'the web imports the contract by a relative path',
    'web/src/app/fixture.ts',
    valueImport('../../../lambdas/contract/limits'),
  ],
  ['the web imports the schemas’ values (zod)', 'web/src/app/fixture.ts', valueImport('#contract/schemas')],
  ['the web imports infra', 'web/src/app/fixture.ts', valueImport('../../../infra/web-security')],
  ['the local server imports infra', 'lambdas/local/fixture.ts', valueImport('../../infra/web-security')],
  ['a top-level lambdas module imports infra', 'lambdas/fixture.ts', valueImport('../infra/context')],
  ['the tutor imports infra', 'lambdas/tutor/fixture.ts', valueImport('../../infra/constructs/api')],
  [
    'the tutor imports the picture makers',
    'lambdas/tutor/fixture.ts',
    valueImport('../pictures/picture-maker'),
  ],
  [
    'the offline tutor imports the picture makers',
    'lambdas/tutor/offline/fixture.ts',
    typeImport('../../pictures/picture-maker'),
  ],
  [
    'the tutor re-exports the picture makers',
    'lambdas/tutor/fixture.ts',
    reExport('../pictures/picture-bytes'),
  ],
  ['the picture makers import the tutor', 'lambdas/pictures/fixture.ts', valueImport('../tutor/upstream')],
  [
    'the picture makers import the tutor’s types',
    'lambdas/pictures/fixture.ts',
    typeImport('../tutor/tutor'),
  ],
  ['the picture makers import infra', 'lambdas/pictures/fixture.ts', valueImport('../../infra/web-security')],
];

const ALLOWED: readonly (readonly [string, string, string])[] = [
  ['the web imports the contract by its alias', 'web/src/app/fixture.ts', valueImport('#contract/limits')],
  ['the web imports the schemas’ types', 'web/src/app/fixture.ts', typeImport('#contract/schemas')],
  ['the web imports its own modules', 'web/src/app/fixture.ts', valueImport('../conversation/state')],
  [
    'the local server imports the security headers from the contract',
    'lambdas/local/fixture.ts',
    valueImport('../contract/security-headers'),
  ],
  [
    'the tutor imports the shared upstream code',
    'lambdas/tutor/fixture.ts',
    valueImport('../upstream/deadline'),
  ],
  [
    'the picture makers import the shared upstream code',
    'lambdas/pictures/fixture.ts',
    valueImport('../upstream/openai-http'),
  ],
  ['the chat handler imports the tutor it serves', 'lambdas/chat/fixture.ts', valueImport('../tutor/tutor')],
  [
    'the image handler imports the picture makers',
    'lambdas/generate-image/fixture.ts',
    valueImport('../pictures/picture-store'),
  ],
];

describe('import boundaries', () => {
  it.each(FORBIDDEN)('report it when %s', async (_name, filePath, statement) => {
    expect((await lintImport(filePath, statement)).reported).toBe(true);
  });

  it.each(ALLOWED)('allow it when %s', async (_name, filePath, statement) => {
    const verdict = await lintImport(filePath, statement);
    expect(verdict.ruleIsOn).toBe(true);
    expect(verdict.reported).toBe(false);
  });
});
