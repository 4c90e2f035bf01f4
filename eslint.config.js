// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Repositories and table files may join other modules' tables; nothing else crosses a module's wall. */
const moduleInternalsButTables = {
  regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$)(?![^/]+\\.tables\\.js$).+',
  message: 'Outside index.ts, only another module\'s tables may be imported (for joins and foreign keys).',
};

const moduleInternals = {
  regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$).+',
  message: 'Modules use each other only through their index.ts (the dependency rule of docs/architecture.md, "Layout").',
};

/** The same walls reached the long way round: `../../modules/x/...` from inside src/modules. */
const deepModuleInternals = {
  regex: '^(\\.\\./)+modules/[^/]+/(?!index\\.js$).+',
  message: 'Modules use each other only through their index.ts, however the path is written.',
};
const deepModuleInternalsButTables = {
  regex: '^(\\.\\./)+modules/[^/]+/(?!index\\.js$)(?![^/]+\\.tables\\.js$).+',
  message: "Outside index.ts, only another module's tables may be imported (for joins and foreign keys).",
};

/** Outside systems are reached through their folder's index.ts (the adapters stay swappable). */
const integrationInternals = {
  regex: '(^|/)integrations/[^/]+/(?!index\\.js$).+',
  message: 'Use an integration only through its index.ts.',
};

/** Routes call services; repositories are the services' business (types may be named). */
const repositoriesFromRoutes = {
  regex: '\\.repository\\.js$',
  allowTypeImports: true,
  message: 'Routes call services, never repositories.',
};

const restrict = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
const ROUTE_FILES = ['src/modules/**/*.routes.ts', 'src/modules/**/*-routes.ts', 'src/modules/**/*.pages.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'drizzle/**', '.bench/**', '.test-embedded/**', 'dist/**', '.cache/**', 'console/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '/(modules|integrations)/', message: 'platform/ knows no feature: it must not import modules or integrations.' }] },
      ],
    },
  },
  {
    files: ['src/modules/**/*.ts'],
    ignores: ['src/modules/**/*.repository.ts', 'src/modules/**/*.service.ts', 'src/modules/**/*.tables.ts', ...ROUTE_FILES],
    rules: restrict(moduleInternals, deepModuleInternals, integrationInternals),
  },
  {
    files: ROUTE_FILES,
    rules: restrict(moduleInternals, deepModuleInternals, integrationInternals, repositoriesFromRoutes),
  },
  {
    files: ['src/modules/**/*.service.ts'],
    rules: restrict(
      moduleInternals,
      deepModuleInternals,
      integrationInternals,
      { regex: '\\.(routes|admin-routes)\\.js$', message: 'Services do not know about HTTP routes.' },
      { regex: '^fastify$|^@fastify/', message: 'Services do not depend on Fastify.' },
    ),
  },
  {
    files: ['src/modules/**/*.repository.ts', 'src/modules/**/*.tables.ts'],
    rules: restrict(moduleInternalsButTables, deepModuleInternalsButTables, {
      regex: '\\.(service|routes|admin-routes|jobs)\\.js$',
      message: 'Repositories hold SQL only: they import tables and platform/db, nothing above them.',
    }),
  },
  {
    files: ['src/integrations/**/*.ts'],
    rules: restrict(
      { regex: '(^|/)modules/', message: 'Integrations know no feature module: modules use them, not the other way round.' },
      { regex: '(^|/)(app|container|server|worker)\\.js$', message: 'Integrations do not reach into the composition root.' },
      { regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$).+', message: "One integration uses another only through its index.ts." },
    ),
  },
  {
    // The server never reaches into the web console (it serves its build as files, nothing more).
    // (no-restricted-syntax: the import rules' options are set per folder above and would be replaced)
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportDeclaration[source.value=/(^|\\/)console\\//]', message: 'The server does not import from the web console (console/).' },
        { selector: 'ImportExpression[source.value=/(^|\\/)console\\//]', message: 'The server does not import from the web console (console/).' },
      ],
    },
  },
  {
    // The web console: browser code with React's hook rules; it talks to the server only through the API.
    files: ['console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)(src|test|scripts)/', message: 'The console uses the server only through its HTTP API.' }] }],
    },
  },
);
