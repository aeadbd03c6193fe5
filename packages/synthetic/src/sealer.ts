/**
 * What a synthetic participant does to each frame, as the web app's E2EE worker does (e2ee-worker.ts), with the same
 * module (frame-crypto.ts): sealed with the meeting key's current epoch while the meeting is end to end encrypted,
 * sent as it is while the server says it is transit-only, and not sent at all while no key is there yet.
 */
import { clearByteCount, encryptFrame, importMediaKey, KeyRing, type MediaKind } from '@videomote/contract/frame-crypto';

export class FrameSealer {
  private readonly ring = new KeyRing();
  endToEnd = true;
  readonly counts = { encrypted: 0, plainSent: 0, unsent: 0 };

  /** A key from gettoken or the socket; `override` replaces its bytes (a test's participant that holds a wrong key). */
  async setKey(epoch: number, key: string, override?: string): Promise<void> {
    this.ring.add({ epoch, key: await importMediaKey(override ?? key) });
  }

  /** The frame to send, or null when it must not go out (no key yet in an encrypted meeting). */
  async seal(kind: MediaKind, data: Uint8Array, key?: boolean): Promise<Uint8Array | null> {
    if (!this.endToEnd) {
      this.counts.plainSent += 1;
      return data;
    }
    const current = this.ring.current;
    if (!current) {
      this.counts.unsent += 1;
      return null;
    }
    const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    const sealed = await encryptFrame(buffer, clearByteCount(kind, kind === 'audio' ? undefined : key ? 'key' : 'delta'), current);
    this.counts.encrypted += 1;
    return new Uint8Array(sealed);
  }
}
