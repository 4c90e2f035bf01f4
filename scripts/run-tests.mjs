/* global process, console */
// Runs every *.test.ts under test/ and src/ with node's test runner (Node 20's --test does not
// expand globs or pick up .ts files by itself). Its summary is the last thing printed.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const embeddedOnly = args.includes('--embedded-only');
const filters = args.filter((a) => !a.startsWith('--'));

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

let files = ['test', 'src'].flatMap((d) => collect(d)).sort();
if (embeddedOnly) files = files.filter((f) => f.includes('embedded'));
if (filters.length > 0) files = files.filter((f) => filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
