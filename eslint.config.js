// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tanstackQuery from '@tanstack/eslint-plugin-query';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import zones (docs/architecture.md, "Layers and import rules"): web → domain → contract, server → domain → contract, simulator → contract. */
const zones = [
  {
    target: './src/contract',
    from: ['./src/domain', './src/server', './src/simulator', './src/web'],
    message: 'contract imports zod only',
  },
  {
    target: './src/domain',
    from: ['./src/server', './src/simulator', './src/web'],
    message: 'domain is pure: it imports contract only',
  },
  {
    target: './src/web',
    from: ['./src/server', './src/simulator'],
    message: 'the browser never imports server or simulator code',
  },
  {
    // The bundle carries no copy of the lenient parser, the normalizer or the zone tables.
    target: './src/web',
    from: [
      './src/contract/parse-pull.ts',
      './src/contract/fast-items.ts',
      './src/contract/load-detail.ts',
      './src/contract/stop.ts',
      './src/domain/normalize.ts',
      './src/domain/stops.ts',
      './src/domain/outlook.ts',
      './src/domain/pod-checks.ts',
      './src/domain/paperwork.ts',
      './src/domain/time.ts',
    ],
    message: "the upstream's wire shape is read on the server only: the page reads the proxy's own shape",
  },
  {
    target: './src/simulator',
    from: ['./src/server', './src/web', './src/domain'],
    message: 'the simulator imports contract only',
  },
  {
    target: './src/server',
    from: ['./src/simulator', './src/web'],
    except: [],
    message: 'the server imports the simulator only in main.ts',
  },
];

// Features never import each other: what two features share moves to components/, map/, data/ or lib/.
const features = readdirSync(new URL('./src/web/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
for (const feature of features) {
  zones.push({
    target: `./src/web/features/${feature}`,
    from: features.filter((other) => other !== feature).map((other) => `./src/web/features/${other}`),
    message: 'features never import each other: move what they share to components/, map/, data/ or lib/',
  });
}
zones.push({
  target: ['./src/web/components', './src/web/map', './src/web/data', './src/web/lib'],
  from: ['./src/web/features', './src/web/app'],
  message: 'shared web code serves the features and the app: it imports neither',
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Config is read once (src/server/config.ts); nothing else reads the environment.
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'read configuration through src/server/config.ts',
        },
      ],
    },
  },
  {
    files: ['src/server/main.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: zones.filter((z) => z.target !== './src/server') }],
    },
  },
  {
    // Tests may check one layer with another's tools (the simulator's timestamps with the domain's parser).
    files: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        // …and build what the proxy would send from the upstream's shape (src/testing/proxy-answer.ts).
        {
          zones: zones.filter(
            (z) =>
              z.target !== './src/server' &&
              z.target !== './src/simulator' &&
              !z.from.includes('./src/domain/time.ts'),
          ),
        },
      ],
    },
  },
  {
    files: ['src/server/config.ts', 'src/simulator/main.ts', 'scripts/**', '*.config.ts', 'bench/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': tanstackQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@tanstack/query/exhaustive-deps': 'error',
      '@tanstack/query/no-rest-destructuring': 'error',
      '@tanstack/query/stable-query-client': 'error',
      '@tanstack/query/prefer-query-options': 'error',
    },
  },
  {
    // Classic zod is not tree-shaken: the page's schemas use zod/mini. The server-only wire readers
    // (load-detail, fields, pull-request, parse-pull) keep the classic API.
    files: [
      'src/web/**/*.{ts,tsx}',
      'src/contract/{proxy-api,load-view,stream-api,review-api,users-api,boards-api,exceptions-api,diagnostics-api,parse-issue,errors,webhook,mini-fields,zod-locale}.ts',
    ],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'zod', message: "the page's schemas use 'zod/mini' (classic zod is not tree-shaken)" },
          ],
        },
      ],
    },
  },
  prettier,
);
