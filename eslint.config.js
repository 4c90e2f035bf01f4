// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Repositories and table files may join other modules' tables; nothing else crosses a module's wall. */
const moduleInternalsButTables = {
  regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$)(?![^/]+\\.tables\\.js$).+',
  message: 'Outside index.ts, only another module\'s tables may be imported (for joins and foreign keys).',
};

const moduleInternals = {
  regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$).+',
  message: 'Modules use each other only through their index.ts (ARCHITECTURE.md dependency rule).',
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'drizzle/**', '.bench/**', '.test-embedded/**'] },
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
    ignores: ['src/modules/**/*.repository.ts', 'src/modules/**/*.service.ts', 'src/modules/**/*.tables.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [moduleInternals] }] },
  },
  {
    files: ['src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            moduleInternals,
            { regex: '\\.(routes|admin-routes)\\.js$', message: 'Services do not know about HTTP routes.' },
            { regex: '^fastify$|^@fastify/', message: 'Services do not depend on Fastify.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/modules/**/*.repository.ts', 'src/modules/**/*.tables.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            moduleInternalsButTables,
            { regex: '\\.(service|routes|admin-routes|jobs)\\.js$', message: 'Repositories hold SQL only: they import tables and platform/db, nothing above them.' },
          ],
        },
      ],
    },
  },
);
