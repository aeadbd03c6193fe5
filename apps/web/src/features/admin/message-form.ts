import { MESSAGE_ERRORS, type SystemMessage, type SystemMessageInput } from '@videomote/contract/messages';
import type { ErrorItem } from '@videomote/contract/errors';
import { joinStockholm, splitStockholm } from './stockholm-time.ts';

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
export function validateForm(v: MessageFormValues): { errors: ErrorItem[]; input: SystemMessageInput | null } {
  const errors: ErrorItem[] = [];
  if (v.type === null) errors.push({ fields: ['type'], message: MESSAGE_ERRORS.type });
  if (!v.value.trim()) errors.push({ fields: ['value'], message: MESSAGE_ERRORS.value });
  if (!v.startDate) errors.push({ fields: ['startDate'], message: MESSAGE_ERRORS.startDate });
  if (!v.startTime) errors.push({ fields: ['startTime'], message: MESSAGE_ERRORS.startTime });
  if (!v.endDate) errors.push({ fields: ['endDate'], message: MESSAGE_ERRORS.endDate });
  if (!v.endTime) errors.push({ fields: ['endTime'], message: MESSAGE_ERRORS.endTime });
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
