import type { Page } from 'playwright-core';

/**
 * Opens a second chat socket from inside the page (its session cookie, its origin), sends the frames as they are,
 * and answers the ERROR notifications the server sent back within `waitMs`: how the browser tests play a modified
 * client that the server must refuse.
 */
export function rawChatRefusals(page: Page, meetingId: string, frames: unknown[], waitMs = 1500): Promise<string[]> {
  return page.evaluate(
    async ({ meetingId, frames, waitMs }) => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/chat/${meetingId}`);
      const errors: string[] = [];
      ws.onmessage = (e) => {
        const s = JSON.parse(String(e.data)) as { type: string; data: { severity?: string; message?: string } };
        if (s.type === 'NOTIFICATION' && s.data.severity === 'ERROR') errors.push(s.data.message ?? '');
      };
      await new Promise((r) => (ws.onopen = r));
      for (const f of frames) ws.send(JSON.stringify(f));
      await new Promise((r) => setTimeout(r, waitMs));
      ws.close();
      return errors;
    },
    { meetingId, frames, waitMs },
  );
}
