import { CLIENT_ERROR_MESSAGE_MAX, ClientErrorCodes, type ClientErrorCode } from '@videomote/contract/admin';

export interface CallErrorReport {
  code: ClientErrorCode;
  message: string;
}

const isCode = (key: string): key is ClientErrorCode => (ClientErrorCodes as readonly string[]).includes(key);

/**
 * Which of the call's errors Felsökning should hear about: those that appeared since the last look, each under its
 * key when the server knows it (else SOMETHING_ELSE with the key in the text), and the same key at most once per
 * `quietMs` so a flapping network does not become a stream of reports.
 */
export class CallErrorReporter {
  private readonly lastSent = new Map<string, number>();
  private seen = new Set<string>();

  constructor(private readonly quietMs = 60_000) {}

  next(errors: readonly { key: string; message: string }[], now: number): CallErrorReport[] {
    const current = new Set(errors.map((e) => e.key));
    const fresh = errors.filter((e) => !this.seen.has(e.key));
    this.seen = current;
    const out: CallErrorReport[] = [];
    for (const e of fresh) {
      const last = this.lastSent.get(e.key);
      if (last !== undefined && now - last < this.quietMs) continue;
      this.lastSent.set(e.key, now);
      const message = isCode(e.key) ? e.message || e.key : `${e.key}: ${e.message}`;
      out.push({ code: isCode(e.key) ? e.key : 'SOMETHING_ELSE', message: message.slice(0, CLIENT_ERROR_MESSAGE_MAX) });
    }
    return out;
  }
}
