export function consoleStale(): boolean;
export function buildConsole(): Promise<boolean>;
export function buildConsoleInBackground(): Promise<void>;
