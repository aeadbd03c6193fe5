import { describe, expect, it } from 'vitest';
import { emptyForm, formFromMessage, validateForm } from './message-form.ts';

describe('system message form', () => {
  it('names every missing required field with its Swedish message', () => {
    expect(validateForm(emptyForm()).errors.map((e) => [e.fields[0], e.message])).toEqual([
      ['type', 'Du behöver välja en typ'],
      ['value', 'Du behöver ange ett meddelande'],
      ['startDate', 'Du behöver ange ett startdatum'],
      ['startTime', 'Du behöver ange en starttid'],
      ['endDate', 'Du behöver ange ett slutdatum'],
      ['endTime', 'Du behöver ange en sluttid'],
    ]);
  });
  it('refuses an end before the start and builds ISO instants in Swedish time', () => {
    const v = { ...emptyForm(), type: 1 as const, value: ' Underhåll ', startDate: '2026-11-20', startTime: '10:00', endDate: '2026-11-20', endTime: '09:00' };
    expect(validateForm(v).errors).toEqual([{ fields: ['endTime', 'endDate'], message: 'Sluttiden måste vara senare än starttiden' }]);
    const ok = validateForm({ ...v, endTime: '11:00', showExternal: true });
    expect(ok.input).toEqual({ type: 1, value: 'Underhåll', startTime: '2026-11-20T09:00:00.000Z', endTime: '2026-11-20T10:00:00.000Z', showExternal: true, showInternal: false, showKauser: false });
  });
  it('round-trips a stored message', () => {
    const m = { id: 'x', type: 2 as const, value: 'Fel', startTime: '2026-07-01T07:00:00.000Z', endTime: '2026-07-01T08:30:00.000Z', showExternal: false, showInternal: true, showKauser: true, version: 1 };
    expect(formFromMessage(m)).toMatchObject({ startDate: '2026-07-01', startTime: '09:00', endTime: '10:30', showInternal: true, showKauser: true });
    expect(validateForm(formFromMessage(m)).input).toMatchObject({ startTime: m.startTime, endTime: m.endTime });
  });
  it('reads typed dates and times leniently and names an unreadable one in Swedish', () => {
    const v = { ...emptyForm(), type: 0 as const, value: 'Underhåll', startDate: '20261120', startTime: '9.30', endDate: '2026-11-20', endTime: '1000' };
    expect(validateForm(v).input).toMatchObject({ startTime: '2026-11-20T08:30:00.000Z', endTime: '2026-11-20T09:00:00.000Z' });
    expect(validateForm({ ...v, startDate: '2026-02-30', endTime: '24:00' }).errors).toEqual([
      { fields: ['startDate'], message: 'Ange datum som åååå-mm-dd' },
      { fields: ['endTime'], message: 'Ange tid som tt:mm' },
    ]);
  });
});
