import { describe, expect, it } from 'vitest';
import { passFrames } from './frame-pipe.ts';

const source = (frames: number[]) =>
  new ReadableStream<number>({
    start(c) {
      for (const f of frames) c.enqueue(f);
      c.close();
    },
  });

const sink = () => {
  const got: number[] = [];
  return { got, writable: new WritableStream<number>({ write: (f) => void got.push(f) }) };
};

describe('passFrames', () => {
  it('passes the frames in order, each as handled, whatever each one takes', async () => {
    const { got, writable } = sink();
    // The first frame takes longest: still written first.
    await passFrames({ readable: source([30, 1, 10]), writable }, async (f) => {
      await new Promise((r) => setTimeout(r, f));
      return f * 2;
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([60, 2, 20]);
  });

  it('drops the frames answered null and goes on with the next', async () => {
    const { got, writable } = sink();
    await passFrames({ readable: source([1, 2, 3, 4]), writable }, async (f) => (f % 2 ? f : null));
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([1, 3]);
  });

  it('ends with the error when its frames fail (the sender or receiver went away)', async () => {
    const readable = new ReadableStream<number>({
      start(c) {
        c.error(new Error('gone'));
      },
    });
    await expect(passFrames({ readable, writable: sink().writable }, async (f) => f)).rejects.toThrow('gone');
  });
});
