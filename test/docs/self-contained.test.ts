import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/*
 * Someone who clones the repository has the repository and nothing else. The docs, comments,
 * strings and test names must not send them to notes kept outside it (a decisions file, an
 * architecture brief, a folder next to the checkout), to a tracker's issue numbers, or to a person
 * ("the lead"). What the code relies on is written down in docs/decisions.md and
 * docs/architecture.md; cite those. And every link between the docs must lead somewhere: the
 * file, and the heading its anchor names.
 */
const root = path.resolve(import.meta.dirname, '../..');
const self = path.relative(root, import.meta.filename);
const SCANNED = ['README.md', 'docs', 'src', 'test', 'scripts', 'bench', 'console/src', '.ci', 'drizzle', 'eslint.config.js', 'package.json'];
const TEXT = /\.(ts|tsx|mts|js|mjs|cjs|json|md|sh|sql|css|html|ya?ml)$/;

function files(rel: string): string[] {
  const full = path.join(root, rel);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [rel];
  return readdirSync(full).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.test-')) return [];
    const child = path.join(rel, name);
    if (statSync(path.join(root, child)).isDirectory()) return files(child);
    return TEXT.test(name) || rel === '.ci' ? [child] : [];
  });
}

/** What must not be cited, each with why a reader cannot follow it. */
const FORBIDDEN: { re: RegExp; what: string }[] = [
  // an import of a folder named shared inside the repository (`from '../shared/x'`) is not a citation
  { re: /(?<!from\s+['"][./]*)(?:\.\.\/|\/work\/)shared\b/, what: 'a folder outside the repository' },
  { re: /\bDECISIONS\b/, what: 'the decisions file outside the repository (cite docs/decisions.md §n)' },
  { re: /\bARCHITECTURE\b/, what: 'the architecture brief outside the repository (cite docs/architecture.md)' },
  { re: /\b(?:issues?|PR|pull request)\s+#?\d+/i, what: 'an issue number (say what changed)' },
  { re: /(?:^|[\s([,])#\d{1,5}(?![\w-])/, what: 'an issue number (say what changed)' },
  { re: /\bthe lead\b/i, what: 'a person (say what or who, in the repository, does it)' },
  {
    re: /\bspec(?:ification)?\b[\s,]*(?:§\s*|sections?\s+)?\d+(?:\.\d+)?|\bspec-\d/i,
    what: 'a section of the API specification, which is not in the repository (cite docs/api.md, "<section>")',
  },
];

test('the repository cites nothing a fresh clone does not have', () => {
  const found: string[] = [];
  for (const file of SCANNED.flatMap(files)) {
    if (file === self) continue; // its patterns name what they look for
    const css = file.endsWith('.css'); // colors such as #111827 are not issue numbers
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const { re, what } of FORBIDDEN) {
          if (css && re.source.includes('#')) continue;
          const m = re.exec(line);
          if (m) found.push(`${file}:${i + 1}: "${m[0].trim()}" cites ${what}`);
        }
      });
  }
  assert.deepEqual(found, []);
});

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = headingAnchor(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

test('every link between the docs leads to a file and heading that exist', () => {
  const docs = ['README.md', ...files('docs').filter((f) => f.endsWith('.md'))];
  const broken: string[] = [];
  for (const doc of docs) {
    const text = readFileSync(path.join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? doc : path.normalize(path.join(path.dirname(doc), file));
      if (!existsSync(path.join(root, resolved))) {
        broken.push(`${doc}: ${target}: no file ${resolved}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(path.join(root, resolved), 'utf8')).has(anchor)) {
        broken.push(`${doc}: ${target}: no heading with that anchor in ${resolved}`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('headingAnchor follows GitHub for the headings the docs use', () => {
  assert.equal(headingAnchor('Customer authentication (decisions §2)'), 'customer-authentication-decisions-2');
  assert.equal(headingAnchor('The ticket stream (`GET /api/backoffice/ticket/sse/stream`)'), 'the-ticket-stream-get-apibackofficeticketssestream');
  assert.equal(headingAnchor('Cloud Hosting Platform — backend'), 'cloud-hosting-platform--backend');
  assert.equal(headingAnchor('§1 Envelope, errors, pagination'), '1-envelope-errors-pagination');
});

test('every citation of a docs/api.md section names a heading of docs/api.md', () => {
  const headings = [...readFileSync(path.join(root, 'docs/api.md'), 'utf8').replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map(
    (m) => m[1]!,
  );
  const missing: string[] = [];
  for (const file of SCANNED.flatMap(files)) {
    if (file === self) continue;
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(/docs\/api\.md, "([^"<]+)"/g)) {
          const cited = m[1]!;
          // a heading is cited by its words, without what follows in parentheses or after a colon
          if (!headings.some((h) => h === cited || h.startsWith(`${cited} (`) || h.startsWith(`${cited}:`))) {
            missing.push(`${file}:${i + 1}: docs/api.md has no section "${cited}"`);
          }
        }
      });
  }
  assert.deepEqual(missing, []);
});
