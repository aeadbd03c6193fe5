import { MESSAGE_ERRORS, type SystemMessage, type SystemMessageInput } from '@videomote/contract/messages';
import type { ErrorItem } from '@videomote/contract/errors';
import { joinStockholm, splitStockholm } from './stockholm-time.ts';
import { dateTimeFormatError, normaliseDateTimeText } from '../../components/ui/date-time-text.ts';

export interface MessageFormValues {
  type: 0 | 1 | 2 | null;
  value: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  showExternal: boolean;
  showInternal: boolean;
  showKauser: boolean;
}

export const emptyForm = (): MessageFormValues => ({
  type: null,
  value: '',
  startDate: '',
  startTime: '',
  endDate: '',
  endTime: '',
  showExternal: false,
  showInternal: false,
  showKauser: false,
});

export function formFromMessage(m: SystemMessage): MessageFormValues {
  const start = splitStockholm(m.startTime);
  const end = splitStockholm(m.endTime);
  return {
    type: m.type,
    value: m.value,
    startDate: start.date,
    startTime: start.time,
    endDate: end.date,
    endTime: end.time,
    showExternal: m.showExternal,
    showInternal: m.showInternal,
    showKauser: m.showKauser,
  };
}

/** Booking spec §5 (system message form): type, text, start date and time, end date and time are required. */
export function validateForm(typed: MessageFormValues): { errors: ErrorItem[]; input: SystemMessageInput | null } {
  const v: MessageFormValues = {
    ...typed,
    startDate: normaliseDateTimeText('date', typed.startDate),
    startTime: normaliseDateTimeText('time', typed.startTime),
    endDate: normaliseDateTimeText('date', typed.endDate),
    endTime: normaliseDateTimeText('time', typed.endTime),
  };
  const errors: ErrorItem[] = [];
  if (v.type === null) errors.push({ fields: ['type'], message: MESSAGE_ERRORS.type });
  if (!v.value.trim()) errors.push({ fields: ['value'], message: MESSAGE_ERRORS.value });
  const dateTimes = [
    ['startDate', 'date'],
    ['startTime', 'time'],
    ['endDate', 'date'],
    ['endTime', 'time'],
  ] as const;
  for (const [field, kind] of dateTimes) {
    const format = dateTimeFormatError(kind, v[field]);
    if (!v[field].trim()) errors.push({ fields: [field], message: MESSAGE_ERRORS[field] });
    else if (format) errors.push({ fields: [field], message: format });
  }
  const startTime = joinStockholm(v.startDate, v.startTime);
  const endTime = joinStockholm(v.endDate, v.endTime);
  if (startTime && endTime && endTime <= startTime) errors.push({ fields: ['endTime', 'endDate'], message: MESSAGE_ERRORS.endBeforeStart });
  if (errors.length) return { errors, input: null };
  return {
    errors,
    input: {
      type: v.type,
      value: v.value.trim(),
      startTime,
      endTime,
      showExternal: v.showExternal,
      showInternal: v.showInternal,
      showKauser: v.showKauser,
    },
  };
}
