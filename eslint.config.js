// One lint config for every folder: infra, lambdas, web, test, bench, scripts.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'cdk.out', '.data', 'test-results'] },
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
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // '#' opens a comment in these gitignore-style patterns, hence the backslash.
              group: ['\\#contract/schemas', '**/lambdas/contract/schemas', '**/lambdas/contract/schemas.ts'],
              allowTypeImports: true,
              message: 'The web may import only types from the schemas (keeps zod out of the bundle).',
            },
            { group: ['zod', '@aws-sdk/*'], message: 'Server-only package.' },
          ],
        },
      ],
    },
  },
  prettier,
);
