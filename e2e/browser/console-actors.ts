/**
 * The console's flows are written once against an `Actor`, then run twice: with the mouse
 * (playwright's clicks and fills) and with the keyboard alone (Tab to each control, then
 * Enter, Space, typing or arrow keys), so "usable by keyboard" is the same flows, not a sample.
 */
import type { Page } from 'playwright-core';
import { expectVisibleFocus, tabTo } from './harness';

type Role = Parameters<Page['getByRole']>[0];

export interface Actor {
  readonly mode: 'mouse' | 'keyboard';
  /** Activates a button or a link. */
  press(role: 'button' | 'link', name: string | RegExp): Promise<void>;
  /** Replaces a text field's content. */
  fill(label: string | RegExp, value: string): Promise<void>;
  check(label: string | RegExp): Promise<void>;
  uncheck(label: string | RegExp): Promise<void>;
  /** Chooses the option whose value is `value` in a select. */
  select(label: string | RegExp, value: string): Promise<void>;
}

// The whole name, give or take surrounding white space (a label's text around its input).
const exact = (name: string | RegExp) =>
  typeof name === 'string'
    ? new RegExp(`^\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`)
    : name;

/** Clicks and fills, as most people do. */
export function mouse(page: Page): Actor {
  // An open modal dialog is all a person can reach (the rest of the page is inert): a form
  // behind it may have controls of the same names.
  const scope = async () => {
    const dialog = page.locator('dialog[open]');
    return (await dialog.count()) ? dialog : page;
  };
  return {
    mode: 'mouse',
    press: async (role, name) => (await scope()).getByRole(role, { name: exact(name) }).click(),
    fill: async (label, value) => (await scope()).getByLabel(exact(label)).fill(value),
    check: async (label) => (await scope()).getByLabel(exact(label)).check(),
    uncheck: async (label) => (await scope()).getByLabel(exact(label)).uncheck(),
    select: async (label, value) => {
      await (await scope()).getByLabel(exact(label)).selectOption(value);
    },
  };
}

// Long pages (forty scope checkboxes, a table of keys) take more than the harness's default.
const MAX_TABS = 200;

/** Tab, then the key a keyboard user would press; focus must be visible at every stop. */
export function keyboard(page: Page): Actor {
  const reach = (role: Role, name: string | RegExp) => tabTo(page, role, exact(name), MAX_TABS);
  return {
    mode: 'keyboard',
    async press(role, name) {
      await reach(role, name);
      await page.keyboard.press('Enter');
    },
    async fill(label, value) {
      await reachField(page, label);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      if (value) await page.keyboard.type(value);
    },
    async check(label) {
      await reach('checkbox', label);
      if (!(await focusedChecked(page))) await page.keyboard.press('Space');
    },
    async uncheck(label) {
      await reach('checkbox', label);
      if (await focusedChecked(page)) await page.keyboard.press('Space');
    },
    async select(label, value) {
      await reach('combobox', label);
      // A closed select moves through its options with the arrow keys (no popup opens).
      await page.keyboard.press('Home');
      for (let i = 0; i < 100; i++) {
        const current = await page.evaluate(
          () => (document.activeElement as HTMLSelectElement).value,
        );
        if (current === value) return;
        await page.keyboard.press('ArrowDown');
      }
      throw new Error(`option ${value} not reached in ${String(label)}`);
    },
  };
}

const focusedChecked = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement).checked);

/** Tabs to the text control labelled `label`, whatever its role (textbox, spinbutton, date). */
async function reachField(page: Page, label: string | RegExp): Promise<void> {
  const target = page.getByLabel(exact(label));
  for (let press = 0; press < MAX_TABS; press++) {
    await page.keyboard.press('Tab');
    const focused = await target.evaluateAll((elements) =>
      elements.some((element) => element === document.activeElement),
    );
    if (focused) return expectVisibleFocus(page);
  }
  throw new Error(`Tab never reached the field ${String(label)}`);
}
