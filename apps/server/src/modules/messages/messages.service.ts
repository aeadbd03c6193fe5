import { MESSAGE_ERRORS, MESSAGE_MAX_LENGTH, type SystemMessage, type SystemMessageInput } from '@videomote/contract/messages';
import type { ErrorItem } from '@videomote/contract/errors';
import type { Queryable } from '../../platform/db.ts';
import type { SessionUser } from '../../platform/session.ts';
import { conflict, notFound, validationError } from '../../platform/errors.ts';
import * as repo from './messages.repository.ts';

import type { Audience, MessageFields } from './messages.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A point in time must carry its offset: a bare local time would mean different instants on server and browser.
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Who a caller is for system messages (booking spec §6): staff see internal messages, KA and MSFA users the
 * supplier ones, and e-ID users, anonymous webcast visitors and callers without a session the external ones.
 */
export function audienceOf(user: SessionUser | null): Audience {
  if (!user || user.kind === 'anonymous') return 'external';
  if (user.kind === 'staff' || user.userLevel === 'Intern') return 'internal';
  if (user.userLevel === 'KA' || user.userLevel === 'MSFA') return 'kauser';
  return 'external';
}

function parseInstant(value: unknown): Date | null {
  if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value.trim())) return null;
  const d = new Date(value.trim());
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Checks a message from the form; every problem is reported at once, each on the field it concerns. */
export function validateMessage(input: SystemMessageInput): MessageFields {
  const errors: ErrorItem[] = [];
  const type = input.type;
  if (type !== 0 && type !== 1 && type !== 2) errors.push({ fields: ['type'], message: MESSAGE_ERRORS.type });
  const value = typeof input.value === 'string' ? input.value.trim() : '';
  if (!value) errors.push({ fields: ['value'], message: MESSAGE_ERRORS.value });
  else if (value.length > MESSAGE_MAX_LENGTH) errors.push({ fields: ['value'], message: MESSAGE_ERRORS.valueTooLong });
  const startTime = parseInstant(input.startTime);
  if (!startTime) errors.push({ fields: ['startTime', 'startDate'], message: MESSAGE_ERRORS.startTime });
  const endTime = parseInstant(input.endTime);
  if (!endTime) errors.push({ fields: ['endTime', 'endDate'], message: MESSAGE_ERRORS.endTime });
  if (startTime && endTime && endTime.getTime() <= startTime.getTime()) {
    errors.push({ fields: ['endTime', 'endDate'], message: MESSAGE_ERRORS.endBeforeStart });
  }
  if (errors.length) throw validationError(errors);
  return {
    type: type as 0 | 1 | 2,
    value,
    startTime: startTime!,
    endTime: endTime!,
    showExternal: input.showExternal === true,
    showInternal: input.showInternal === true,
    showKauser: input.showKauser === true,
  };
}

export const activeMessages = (db: Queryable, now: Date, user: SessionUser | null) => repo.listActiveMessages(db, now, audienceOf(user));

export const allMessages = (db: Queryable) => repo.listAllMessages(db);

export async function getMessage(db: Queryable, id: string): Promise<SystemMessage> {
  const message = UUID.test(id) ? await repo.findMessage(db, id) : null;
  if (!message) throw notFound(MESSAGE_ERRORS.notFound);
  return message;
}

export const createMessage = (db: Queryable, input: SystemMessageInput) => repo.insertMessage(db, validateMessage(input));

export async function updateMessage(db: Queryable, id: string | null | undefined, input: SystemMessageInput): Promise<SystemMessage> {
  if (!id || !UUID.test(id)) throw notFound(MESSAGE_ERRORS.notFound);
  const fields = validateMessage(input);
  const version = input.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw validationError([{ fields: ['version'], message: MESSAGE_ERRORS.version }]);
  }
  const updated = await repo.updateMessageIfVersion(db, id, version, fields);
  if (updated) return updated;
  // Nothing written: either the message is gone, or someone saved it after this admin opened it.
  if (!(await repo.findMessage(db, id))) throw notFound(MESSAGE_ERRORS.notFound);
  throw conflict(MESSAGE_ERRORS.conflict);
}

export async function deleteMessage(db: Queryable, id: string): Promise<{ id: string }> {
  if (!UUID.test(id) || !(await repo.deleteMessage(db, id))) throw notFound(MESSAGE_ERRORS.notFound);
  return { id };
}
