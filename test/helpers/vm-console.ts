import type { Page } from 'playwright-core';

/** Opens the console of the VM page shown and waits for the keyboard to be in the terminal. */
export async function openConsole(page: Page, vmName: string) {
  const card = page.getByRole('region', { name: 'Console' });
  await card.getByRole('button', { name: 'Open console' }).click();
  const terminal = page.getByRole('region', { name: `Terminal of ${vmName}` });
  await card.getByRole('status').filter({ hasText: 'Connected.' }).waitFor();
  await page.waitForFunction(() => document.activeElement?.classList.contains('xterm-helper-textarea') === true);
  return terminal;
}
