import { describe, expect, it } from 'vitest';
import { CallErrorReporter } from './error-reporting.ts';

const entry = (key: string, message = '') => ({ key, message, visible: true, known: true });

describe('CallErrorReporter', () => {
  it('reports each error when it appears, not again while it stays, and again after it cleared and the quiet time passed', () => {
    const r = new CallErrorReporter(60_000);
    expect(r.next([entry('connectionFailed', 'Anslutning misslyckades')], 0)).toEqual([{ code: 'connectionFailed', message: 'Anslutning misslyckades' }]);
    expect(r.next([entry('connectionFailed', 'Anslutning misslyckades')], 1000)).toEqual([]);
    expect(r.next([], 2000)).toEqual([]);
    // Back within a minute: a flapping network is one report.
    expect(r.next([entry('connectionFailed')], 30_000)).toEqual([]);
    expect(r.next([], 31_000)).toEqual([]);
    expect(r.next([entry('connectionFailed')], 91_000)).toEqual([{ code: 'connectionFailed', message: 'connectionFailed' }]);
  });

  it('reports an unknown key as SOMETHING_ELSE with the key in the text, and keeps texts short', () => {
    const r = new CallErrorReporter();
    expect(r.next([entry('WEIRD_THING', 'x'.repeat(300))], 0)).toEqual([{ code: 'SOMETHING_ELSE', message: `WEIRD_THING: ${'x'.repeat(300)}`.slice(0, 200) }]);
  });
});
