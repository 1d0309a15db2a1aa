// ESLint for the whole repository (run from the root: `npm run lint`). Syntax-level rules only:
// the type checker (`npm run typecheck`, TypeScript 7) already does what type-aware lint rules
// would, and typescript-eslint cannot load TypeScript 7's compiler.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    basePath: '../..',
    ignores: ['**/node_modules/**', '**/dist/**', 'custom-elements.json', 'test-results/**', 'playwright-report/**', '.readme-check/**', 'examples/.cache/**', 'examples/*/.wrangler/**', 'docs/reference/**', 'docs/.vitepress/cache/**', 'docs/.vitepress/dist/**', 'tools/lint/**'],
  },
  {
    basePath: '../..',
    files: ['**/*.{ts,mts,js,mjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // `_name` marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Classic scripts that the tests and benchmarks inject into pages as they are, written for any
    // browser (and for pages whose globals they wrap): `var` and `arguments` on purpose.
    basePath: '../..',
    files: ['test/e2e/support/*.js', 'bench/contenders/*.js'],
    rules: { 'no-var': 'off', 'prefer-rest-params': 'off' },
  },
);
