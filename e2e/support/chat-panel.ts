import type { Page } from 'playwright-core';

/** The meeting screen's chat panel and its message log. */
export const chatPanel = (page: Page) => page.getByRole('region', { name: 'Chatt' });
export const messages = (page: Page) => page.getByRole('log', { name: 'Chattmeddelanden' });

/** Sends a chat message; answers when the input cleared (only a message that went out clears it). */
export async function say(page: Page, text: string, timeout = 30_000): Promise<void> {
  const input = chatPanel(page).getByRole('textbox', { name: 'Skriv ett meddelande' });
  await input.fill(text);
  const deadline = Date.now() + timeout;
  for (;;) {
    await chatPanel(page).getByRole('button', { name: 'Skicka' }).click();
    await new Promise((r) => setTimeout(r, 100));
    if ((await input.inputValue()) === '') return;
    if (Date.now() > deadline) throw new Error(`chat message "${text}" not sent within ${timeout} ms`);
  }
}
