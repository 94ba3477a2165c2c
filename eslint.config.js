// One lint config for every folder: infra, lambdas, web, test.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import boundaries, as no-restricted-imports patterns on the import's text (a later config object's
// options replace an earlier one's for the same rule, so each folder lists all of its patterns).
// test/lint/boundaries.test.ts lints a forbidden and an allowed import for each of them.
const INFRA_IS_OFF_LIMITS = {
  regex: '^(\\.\\.?/)+infra(/|$)',
  message:
    'infra/ deploys the app; nothing at runtime imports it (shared definitions go in lambdas/contract/).',
};
const siblingOffLimits = (sibling) => ({
  regex: `^(\\.\\.?/)+(lambdas/)?${sibling}(/|$)`,
  message: `lambdas/${sibling} is a sibling service: share through lambdas/upstream/ (or the contract) instead.`,
});

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
    // The web bundle must never pull zod (or any server code) in at runtime: only types and plain data.
    // Of lambdas/ it sees only the contract, named #contract/… (package.json `imports`); the Vite config
    // beside it is build tooling that mounts the local API, not the app, so it is left out.
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
              regex: '^(\\.\\.?/)+lambdas(/|$)',
              message: 'The web sees only the contract, as #contract/…; nothing else of lambdas/.',
            },
            INFRA_IS_OFF_LIMITS,
          ],
        },
      ],
    },
  },
  // Runtime code never reaches up into the stack that deploys it (issue 11: "clean boundaries").
  {
    files: ['lambdas/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [INFRA_IS_OFF_LIMITS] }] },
  },
  // The tutor and the picture makers are siblings: what they share lives in lambdas/upstream/.
  {
    files: ['lambdas/tutor/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [INFRA_IS_OFF_LIMITS, siblingOffLimits('pictures')] }],
    },
  },
  {
    files: ['lambdas/pictures/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [INFRA_IS_OFF_LIMITS, siblingOffLimits('tutor')] }],
    },
  },
  prettier,
);
