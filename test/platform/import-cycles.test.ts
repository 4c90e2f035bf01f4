import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseCircular, parseDependencyTree } from 'dpdm';

// No import circles in src/, type-only imports included: a circle is a dependency the layering
// rules (eslint.config.js) do not see, and the late-bound job factories that made the last ones
// are gone. dpdm parses with the TypeScript compiler and resolves `./x.js` to `./x.ts`.
const tsconfig = path.resolve('tsconfig.json');

async function circlesIn(entries: string, cwd: string): Promise<string[][]> {
  const tree = await parseDependencyTree(entries, { cwd, context: cwd, tsconfig, transform: false, skipDynamicImports: false });
  // an import it could not resolve would hide a circle: every relative one must resolve
  const unresolved = Object.values(tree).flatMap((deps) => (deps ?? []).filter((d) => d.request.startsWith('.') && d.id === null).map((d) => `${d.issuer}: ${d.request}`));
  assert.deepEqual(unresolved, []);
  return parseCircular(tree);
}

test('src/ has no import circle', async () => {
  const circles = await circlesIn('src/**/*.ts', process.cwd());
  assert.deepEqual(circles.map((c) => c.join(' -> ')), []);
});

test('the check sees a circle made of type-only imports', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
  try {
    writeFileSync(path.join(dir, 'a.service.ts'), "import type { Job } from './a.jobs.js';\nexport class Service { job?: Job }\n");
    writeFileSync(path.join(dir, 'a.jobs.ts'), "import type { Service } from './a.service.js';\nexport type Job = { service: Service };\n");
    const circles = await circlesIn('*.ts', dir);
    assert.equal(circles.length, 1);
    assert.deepEqual(circles[0]!.map((f) => path.basename(f)).sort(), ['a.jobs.ts', 'a.service.ts']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
