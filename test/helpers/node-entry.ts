import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The node arguments that run a TypeScript entry in a child process. Under scripts/run-tests.mjs
 * the entries tests spawn are bundled with the test files (TEST_SPAWN_DIR), so a child loads plain
 * JavaScript instead of compiling the application through tsx, several CPU seconds a start that
 * a loaded machine turns into a minute; run by hand, the source goes through tsx.
 */
export function nodeEntry(source: string): string[] {
  const dir = process.env.TEST_SPAWN_DIR;
  if (dir) {
    const bundled = path.join(dir, path.relative(process.cwd(), source).replace(/\.ts$/, '.js'));
    if (existsSync(bundled)) return ['--enable-source-maps', bundled];
  }
  return ['--import', 'tsx', source];
}
