import type { Page } from 'playwright-core';

/** How far the page reaches past the right edge of the screen (0: nothing to scroll sideways). */
export async function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The width a table's content needs beyond its frame (0: its last column shows in full). */
export async function tableOverflow(page: Page, caption: string): Promise<number> {
  return page.getByRole('table', { name: caption }).evaluate((table) => {
    const frame = table.parentElement!;
    return frame.scrollWidth - frame.clientWidth;
  });
}

/**
 * What the narrow screen's side bar covers below its own head (the brand and the menu button)
 * when its menu is closed: 0 when nothing but its padding is there.
 */
export async function closedMenuBand(page: Page): Promise<number> {
  return page.evaluate(() => {
    const side = document.querySelector('aside.side')!;
    const head = side.querySelector('.head')!;
    const padding = parseFloat(getComputedStyle(side).paddingBottom);
    return Math.round(side.getBoundingClientRect().bottom - head.getBoundingClientRect().bottom - padding);
  });
}
