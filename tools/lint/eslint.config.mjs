// ESLint for the whole repository (run from the root: `npm run lint`; patterns start with `**/`
// because this file sits in tools/lint, below the files it reads). Syntax-level rules only:
// the type checker (`npm run typecheck`, TypeScript 7) already does what type-aware lint rules
// would, and typescript-eslint cannot load TypeScript 7's compiler.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/custom-elements.json',
      '**/test-results/**',
      '**/playwright-report/**',
      '**/.readme-check/**',
      '**/examples/.cache/**',
      '**/examples/.new-user/**',
      '**/examples/*/.wrangler/**',
      // The widget's files copied into the Worker example's assets (`itch-oauth-widget assets`): built output.
      '**/examples/cloudflare-worker/public/*.iife.js',
      '**/examples/cloudflare-worker/public/locales/**',
      '**/docs/reference/**',
      '**/docs/.vitepress/cache/**',
      '**/docs/.vitepress/dist/**',
      '**/tools/lint/**',
    ],
  },
  {
    files: ['**/*.{ts,mts,js,mjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // `_name` marks a parameter kept for its position.
      // A variable a closure reads before its one assignment (a timer, a handler set up later).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Classic scripts that the tests and benchmarks inject into pages as they are, written for any
    // browser (and for pages whose globals they wrap): `var` and `arguments` on purpose.
    files: ['**/test/e2e/support/*.js', '**/bench/contenders/*.js'],
    rules: { 'no-var': 'off', 'prefer-rest-params': 'off' },
  },
  {
    // Tests read parsed JSON answers field by field, each asserted: `any` is the honest type there.
    files: ['**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // One job per file: a source file that outgrows this is doing two.
    files: ['**/src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      // One step per function: 80 lines is a screen, room for a hub that names its steps in order
      // (createTokenHandler's request handling, a Lit render), not for three steps written inline.
      // Blank lines and comments do not count, so explaining a step costs nothing.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
);
