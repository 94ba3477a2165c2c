// One lint config for every folder: infra, lambdas, web, test.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));

// The layers (docs/architecture.md, "Layers"): each folder lists what it may import of its own tree;
// anything else of that tree is reported, on the import's resolved path (a relative path, an alias such
// as #contract/… and a re-export are all the same file to the rule). A folder may always import itself.
// test/lint/boundaries.test.ts lints a forbidden and an allowed import for each row.
const WEB_LAYERS = {
  app: ['components', 'conversation', 'speech', 'api', 'i18n', 'lib'],
  components: ['conversation', 'speech', 'api', 'i18n', 'lib'],
  conversation: ['speech', 'api', 'lib'],
  speech: ['api', 'lib'],
  api: ['lib'],
  // The UI strings: the screen's words, so only the screen (app, components) reads them.
  i18n: ['lib'],
  lib: [],
};
const LOWER_FLOOR = ['upstream', 'http', 'store'];
const BOTTOM = ['lib', 'config.ts', 'contract'];
const SERVICES = ['tutor', 'pictures', 'speech', 'trust', 'spend'];
const HANDLERS = ['chat', 'generate-image', 'feedback', 'speech-token'];
const LAMBDAS_LAYERS = {
  // endpoint-handlers.ts wires each registry row to its handler, for the local server and the tests.
  'endpoint-handlers.ts': [...HANDLERS, 'endpoints.ts', ...SERVICES, ...LOWER_FLOOR, ...BOTTOM],
  ...Object.fromEntries(
    HANDLERS.map((handler) => [handler, ['endpoints.ts', ...SERVICES, ...LOWER_FLOOR, ...BOTTOM]]),
  ),
  'endpoints.ts': ['contract'],
  ...Object.fromEntries(SERVICES.map((service) => [service, [...LOWER_FLOOR, ...BOTTOM]])),
  ...Object.fromEntries(LOWER_FLOOR.map((floor) => [floor, BOTTOM])),
  'config.ts': ['lib', 'contract'],
  lib: ['contract'],
  contract: [],
};

const layerZones = (root, layers) =>
  Object.entries(layers).map(([layer, below]) => ({
    target: `./${root}/${layer}`,
    from: `./${root}`,
    except: [`./${layer}`, ...below.map((name) => `./${name}`)],
    message: `${root}/${layer} may import ${below.length ? `only ${below.join(', ')}` : 'nothing else'} of ${root}/ (docs/architecture.md, "Layers").`,
  }));

const ZONES = [
  ...layerZones('web/src', WEB_LAYERS),
  ...layerZones('lambdas', LAMBDAS_LAYERS),
  {
    target: './web/src',
    from: './lambdas',
    except: ['./contract'],
    message: 'The web sees only the contract of lambdas/.',
  },
  {
    target: './lambdas/contract',
    from: ['./web', './infra', './test'],
    message: 'The contract imports nothing of ours: it is the shapes every side shares.',
  },
  {
    target: ['./web/src', './lambdas', './infra'],
    from: './test',
    message: 'test/ (and its #support/… fakes) is for tests; nothing that ships imports it.',
  },
  {
    target: ['./web/src', './lambdas'],
    from: './infra',
    message:
      'infra/ deploys the app; nothing at runtime imports it (shared definitions go in lambdas/contract/).',
  },
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'cdk.out', '.data', 'test-results', '.stryker-tmp', 'reports'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'test/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The layers and import cycles, on resolved paths, in the code that runs (tests may import anything).
    files: ['web/src/**/*.{ts,tsx}', 'lambdas/**/*.ts', 'infra/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x's own resolver follows package.json `imports` (#contract/…) as Node, Vite and tsx do.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // Only our TypeScript is read for cycles; packages are never parsed.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/ignore': ['node_modules'],
      // One lint run: a resolved path never changes under it.
      'import-x/cache': { lifetime: '∞' },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: repoRoot, zones: ZONES }],
      // The longest import chain here is 11 files, so a loop is found within 12; type-only imports are
      // no loop at run time and are not followed (docs/design-notes.md, "Layers, enforced by lint").
      'import-x/no-cycle': ['error', { ignoreExternal: true, maxDepth: 12 }],
    },
  },
  {
    // The web bundle must never pull zod (or any server code) in at runtime: only types and plain data.
    // Of lambdas/ it sees only the contract, named #contract/… (package.json `imports`); the Vite config
    // beside it is build tooling that mounts the local API, not the app, so it is left out. Which files
    // it may import is import-x/no-restricted-paths' job above; these are what a path cannot say.
    files: ['web/**/*.{ts,tsx}'],
    ignores: ['web/vite.config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // '#' opens a comment in these gitignore-style patterns, hence the backslash.
              group: ['\\#contract/schemas'],
              allowTypeImports: true,
              message: 'The web may import only types from the schemas (keeps zod out of the bundle).',
            },
            { group: ['zod', '@aws-sdk/*'], message: 'Server-only package.' },
            {
              regex: '^((\\.\\.?/)+|#)lambdas(/|$)',
              message:
                'The web names the contract by its own alias, #contract/…, never by a path into lambdas/.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
