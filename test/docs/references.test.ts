import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/*
 * The docs name files and code; a rename that forgets the docs leaves a reader chasing something
 * that is not there. Every path under a folder of the repository that a doc names must exist,
 * and every code identifier it names (a camelCase or PascalCase word, `name()`, `Type.method`)
 * must occur in the code.
 */
const root = path.resolve(import.meta.dirname, '../..');
const docs = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const CODE_DIRS = ['src', 'test', 'scripts', 'bench', 'console', 'drizzle', '.ci'];
const TOP = new Set([...CODE_DIRS, 'docs', 'data', 'dist', '.cache', 'node_modules']);

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.test-')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...files(full));
    else if (/\.(ts|tsx|mjs|js|sql|sh|json)$/.test(name) || name === 'run') out.push(full);
  }
  return out;
}
let code: string | undefined;
const codeText = () => (code ??= CODE_DIRS.flatMap((d) => files(path.join(root, d))).map((f) => readFileSync(f, 'utf8')).join('\n'));

/** Inline code spans of a markdown text (fenced blocks left out: they show shell sessions). */
function spans(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
}

/** A path into the repository: starts with one of its folders. */
function repoPath(span: string): string | undefined {
  const m = /^(?:\.\/)?([A-Za-z0-9_.-]+)\/([^\s:()`'"]*)$/.exec(span);
  if (!m || !TOP.has(m[1]!)) return undefined;
  if (['data', 'dist', '.cache', 'node_modules'].includes(m[1]!)) return undefined; // made at run time
  return `${m[1]}/${m[2]}`;
}

function pathExists(p: string): boolean {
  const clean = p.replace(/[#?].*$/, '').replace(/\/$/, '');
  if (!clean.includes('*') && !clean.includes('<')) return existsSync(path.join(root, clean));
  // a pattern (`src/modules/*/index.ts`, `<feature>.routes.ts`): its folder part before the first wildcard exists
  const fixed = clean.split('/').filter((_, i, parts) => !parts.slice(0, i + 1).some((x) => /[*<]/.test(x)));
  return existsSync(path.join(root, ...fixed));
}

/** Whether a source imports `name` from a package (not a relative path). */
function importsFromPackage(text: string, name: string): boolean {
  return [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)].some(
    (m) => !m[2]!.startsWith('.') && m[1]!.split(',').some((part) => part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0] === name),
  );
}

const codeLike = (w: string) => /[a-z][A-Z]/.test(w) && !w.includes('_'); // camelCase or PascalCase, not SNAKE or snake

/** The sources that define the class, interface or type alias `name`. */
function definitionsOf(name: string): string[] {
  const re = new RegExp(`^\\s*(?:export\\s+)?(?:declare\\s+)?(?:abstract\\s+)?(?:class\\s+${name}\\b|interface\\s+${name}\\b|type\\s+${name}\\s*(?:<[^=]*>)?\\s*=)`, 'm');
  return CODE_DIRS.flatMap((d) => files(path.join(root, d)))
    .map((f) => readFileSync(f, 'utf8'))
    .filter((text) => re.test(text));
}

/**
 * What a code span names that must exist: `fooBar`, `fooBar(x)` (the identifier occurs in the
 * code) and `Type.member` / `Type.member(…)` (the type is defined, and its definition's file
 * names the member).
 */
function problems(span: string): string[] {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?(?:\([^()]*\))?$/.exec(span);
  if (!m) return [];
  const [, owner, member] = m as unknown as [string, string, string | undefined];
  if (member && /^[A-Z]/.test(owner) && codeLike(owner)) {
    const sources = definitionsOf(owner);
    if (sources.length === 0) {
      // a library's type (drizzle's PgPreparedQuery): the code imports it and uses the member
      const importer = files(path.join(root, 'src')).map((f) => readFileSync(f, 'utf8')).find((text) => importsFromPackage(text, owner));
      if (!importer) return [`${owner} is defined nowhere`];
      return new RegExp(`\\b${member}\\b`).test(importer) ? [] : [`${owner} has no ${member} where the code uses it`];
    }
    return sources.some((source) => new RegExp(`\\b${member}\\b`).test(source)) ? [] : [`${owner} has no ${member}`];
  }
  return [owner, member]
    .filter((w): w is string => !!w && codeLike(w))
    .filter((w) => !new RegExp(`\\b${w}\\b`).test(codeText()))
    .map((w) => `${w} occurs nowhere in the code`);
}

test('every file and code identifier the docs name exists', () => {
  const missing: string[] = [];
  for (const doc of docs) {
    for (const span of spans(readFileSync(path.join(root, doc), 'utf8'))) {
      const p = repoPath(span);
      if (p !== undefined) {
        if (!pathExists(p)) missing.push(`${doc}: file ${span}`);
        continue;
      }
      for (const problem of problems(span)) missing.push(`${doc}: \`${span}\`: ${problem}`);
    }
  }
  assert.deepEqual(missing, []);
});
