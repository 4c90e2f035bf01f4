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

/**
 * The composition root and the flows assemble modules; no module reaches back into them (a module
 * takes what it needs as its factory's typed dependencies: src/container.ts hands them in).
 */
const compositionRoot = {
  regex: '(^|/)(flows/.+|app\\.js|container\\.js|server\\.js|worker\\.js)$',
  message: 'Modules do not import the flows or the composition root; take the dependency as a parameter of the module factory (docs/architecture.md, "Modules and flows").',
};

/** Routes call services; repositories are the services' business (types may be named). */
const repositoriesFromRoutes = {
  regex: '\\.repository\\.js$',
  allowTypeImports: true,
  message: 'Routes call services, never repositories.',
};

/** The web console reaches the server only through its HTTP API. */
const consoleApiOnly = { regex: '(^|/)(src|test|scripts)/', message: 'The console uses the server only through its HTTP API.' };

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
    rules: restrict(moduleInternals, deepModuleInternals, integrationInternals, compositionRoot),
  },
  {
    files: ROUTE_FILES,
    rules: restrict(moduleInternals, deepModuleInternals, integrationInternals, repositoriesFromRoutes, compositionRoot),
  },
  {
    files: ['src/modules/**/*.service.ts'],
    rules: restrict(
      moduleInternals,
      deepModuleInternals,
      integrationInternals,
      compositionRoot,
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
    // A flow names the modules it joins through their index.ts, like the container.
    files: ['src/flows/**/*.ts'],
    rules: restrict(deepModuleInternals, integrationInternals, {
      regex: '(^|/)(app|container|server|worker)\\.js$',
      message: 'Flows are handed to modules by the container; they do not import it.',
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
      'no-restricted-imports': ['error', { patterns: [consoleApiOnly] }],
      // query keys come from console/src/api/keys.ts, so two screens cannot name one cache apart
      'no-restricted-syntax': [
        'error',
        { selector: "Property[key.name='queryKey'] > ArrayExpression", message: 'Name a query key through console/src/api/keys.ts, not as a literal.' },
        { selector: "Property[key.name='invalidate'] > ArrayExpression > ArrayExpression", message: 'Name a query key through console/src/api/keys.ts, not as a literal.' },
        { selector: "VariableDeclarator[id.name='invalidate'] > ArrayExpression > ArrayExpression", message: 'Name a query key through console/src/api/keys.ts, not as a literal.' },
      ],
    },
  },
  {
    // Screens (the files at the top of customer/ and staff/, routed by the app file) do not import
    // each other: what two screens share lives in ui/ or in the console's shared/ folder.
    files: ['console/src/customer/*.tsx', 'console/src/staff/*.tsx'],
    ignores: [
      'console/src/customer/CustomerApp.tsx',
      'console/src/staff/StaffApp.tsx',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [consoleApiOnly, { regex: '^\\./(?!shared/|access$)', message: 'A screen does not import another screen: move what they share to ui/ or shared/.' }] }],
    },
  },
  {
    files: ['console/src/*/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [consoleApiOnly, { regex: '^\\.\\./(?!\\.\\./|access$)', message: 'A shared piece does not import a screen.' }] }],
    },
  },
  {
    files: ['console/src/ui/**/*.{ts,tsx}', 'console/src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [consoleApiOnly, { regex: '(^|/)(customer|staff)/', message: 'ui/ and api/ serve both consoles and know neither.' }] }],
    },
  },
);
