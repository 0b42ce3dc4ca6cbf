import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The client's import boundaries (docs/decisions/120-client-resource-components-and-import-boundaries.md,
 * proved by src/client/lint-boundaries.test.ts): `components`, `lib` and the contract
 * → `features` → `app`. A feature reaches its own files by relative paths that never climb out of
 * its folder and shared code through `@/…`, never another feature; `components` and `lib` never
 * import a feature or the app. What two features share moves to `components/` or `lib/`.
 */
const FEATURES_DIR = 'src/client/features';
const FEATURES = readdirSync(FEATURES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/** Folder depth inside a feature that the relative-path rule covers (features/admin/routes/… is 1). */
const MAX_FEATURE_DEPTH = 5;

/** React Router's Link: the app's links are @/lib/link's (decision 463). */
const ROUTER_LINK = { name: 'react-router', importNames: ['Link'], message: "Links are @/lib/link's: React Router's resolves every link on every render (decision 463)." };

/** The same rule for static imports/re-exports and for dynamic `import()`. */
function restrictImports(patterns) {
  return {
    'no-restricted-imports': ['error', { paths: [ROUTER_LINK], patterns: patterns.map(({ regex, message }) => ({ regex, message })) }],
    'no-restricted-syntax': [
      'error',
      ...patterns.map(({ regex, message }) => ({ selector: `ImportExpression > Literal[value=/${regex.replaceAll('/', '\\/')}/]`, message })),
    ],
  };
}

const outsideFeatures = (where) => [
  { regex: '^@/features/', message: `${where} never imports a feature: features build on it, not the other way round.` },
  { regex: '^@/app/', message: `${where} never imports the app.` },
  { regex: '^\\.\\.?/(.*/)?features(/|$)', message: `${where} never imports a feature: features build on it, not the other way round.` },
];

/**
 * Test support (src/server/testing/, src/client/testing/) is for tests, benchmarks and stress runs:
 * product code never imports it (docs/architecture.md).
 */
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', 'src/server/testing/**', 'src/client/testing/**'];
const noTestSupport = {
  regex: '(^|/)testing/',
  message: 'Product code never imports test support (testing/): move what it needs into the product, or the import into a test.',
};

/**
 * The product's server code never imports the demo catalogue (src/server/demo/): the demo builds on
 * the product (registering its job kind, seeding through the modules' code), not the other way round
 * (docs/decisions/354-product-code-does-not-import-the-demo.md).
 */
const SERVER_PRODUCT_DIRS = ['modules', 'jobs', 'storage', 'db', 'media'].map((dir) => `src/server/${dir}/**/*.{ts,tsx}`);
const noDemo = {
  regex: '(^|/)demo(/|$)',
  message: 'Product code never imports the demo catalogue (src/server/demo/): move what it needs into the product, or let the demo register with it.',
};

/**
 * The same patterns twice: product files get them plus `noTestSupport`, test files without it (a
 * later flat-config entry would replace an earlier one's rule, so each file gets exactly one entry).
 */
function withTestSupportRule({ files, patterns }) {
  return [
    { files, ignores: TEST_FILES, rules: restrictImports([...patterns, noTestSupport]) },
    { files: files.flatMap((f) => [f.replace(/\.\{ts,tsx\}$/, '.test.ts'), f.replace(/\.\{ts,tsx\}$/, '.test.tsx')]), rules: restrictImports(patterns) },
  ];
}

const boundaries = [
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: [...TEST_FILES, ...SERVER_PRODUCT_DIRS, `${FEATURES_DIR}/**`, 'src/client/components/**', 'src/client/lib/**'],
    rules: restrictImports([noTestSupport]),
  },
  // Tests there may use the demo (a seeded catalogue); the product files may not.
  { files: SERVER_PRODUCT_DIRS, ignores: TEST_FILES, rules: restrictImports([noDemo, noTestSupport]) },
  ...FEATURES.flatMap((feature) =>
    Array.from({ length: MAX_FEATURE_DEPTH + 1 }, (_, depth) => ({
      files: [`${FEATURES_DIR}/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
      patterns: [
        {
          regex: `^@/features/(?!${feature}/)`,
          message: `Features do not import each other: move what ${feature} shares with another feature to components/ or lib/.`,
        },
        { regex: '^@/app/', message: 'A feature never imports the app (the app imports features).' },
        {
          regex: `^(\\.\\./){${depth + 1},}`,
          message: `Relative imports stay inside features/${feature}: reach shared code through @/components, @/lib or @contract.`,
        },
      ],
    })),
  ).flatMap(withTestSupportRule),
  ...withTestSupportRule({ files: ['src/client/components/**/*.{ts,tsx}'], patterns: outsideFeatures('components/') }),
  ...withTestSupportRule({ files: ['src/client/lib/**/*.{ts,tsx}'], patterns: outsideFeatures('lib/') }),
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', '.tmp', 'coverage', 'screenshots'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  ...boundaries,
);
