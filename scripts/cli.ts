import { ConfigError } from '../src/config/index.js';

/** Runs a command-line entry point: its exit code, or 1 with one line for a failure. */
export function runCli(main: () => Promise<number>): void {
  main()
    .then((code) => process.exit(code))
    .catch((err: unknown) => {
      console.error(err instanceof ConfigError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}
