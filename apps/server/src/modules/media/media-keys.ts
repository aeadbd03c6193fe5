import crypto from 'node:crypto';
import type { MediaKey } from '@videomote/contract/media';
import type { Queryable } from '../../platform/db.ts';
import type { PinCrypto } from '../../platform/crypto.ts';
import type { SessionUser } from '../../platform/session.ts';
import { findMemberForUser, type Membership } from '../meetings/meeting-membership.ts';
import { addKeyHolder, deleteKeyHolders, findMediaKey, insertMediaKey, listKeyHolders, replaceMediaKey, type KeyHolder } from './media-keys.repository.ts';

/**
 * The meeting's end-to-end media key: 256 bits from the operating system's CSPRNG, made by the server on first
 * use, stored encrypted at rest with the personnummer's key (a database dump alone opens no call), and handed only
 * to people `MediaService.admit` let in. Janus never sees it: the browsers encrypt every frame with it.
 *
 * SECURITY: the key is a secret like a session token. It is never logged, never put in an error, and leaves
 * the server only in the gettoken answer and the `/media` `mediaKey` message, both to an admitted member.
 */
export class MediaKeys {
  constructor(
    private readonly db: Queryable,
    private readonly pins: PinCrypto,
  ) {}

  /** The meeting's current key, made now if it has none. */
  async current(meetingId: string): Promise<MediaKey> {
    const stored = (await findMediaKey(this.db, meetingId)) ?? (await insertMediaKey(this.db, meetingId, this.pins.encrypt(newKey())));
    return { epoch: stored.epoch, key: this.pins.decrypt(stored.keyEncrypted) };
  }

  /**
   * The current key for an admitted member. A booked participant is remembered as a holder (as who they are now),
   * so that removing them from the booking replaces the key; a webcast visitor cannot be removed from a booking.
   */
  async handTo(membership: Membership, user: Pick<SessionUser, 'afId' | 'pinHash'>): Promise<MediaKey> {
    const meetingId = membership.meeting.id;
    if (membership.kind === 'participant') {
      const identity = holderIdentity(user);
      if (identity) await addKeyHolder(this.db, meetingId, { participantId: membership.participant.id, identity });
    }
    return this.current(meetingId);
  }

  /**
   * After a change of the booking: when someone who was handed the key is no longer that participant (removed, or
   * the row now names another person), a new key replaces it. Answers whether this call replaced it; the caller
   * then hands the new key to those left. The removed one's old key opens nothing encrypted after that.
   */
  async rotateIfHolderRemoved(meetingId: string): Promise<boolean> {
    const stored = await findMediaKey(this.db, meetingId);
    if (!stored) return false;
    const removed: KeyHolder[] = [];
    for (const holder of await listKeyHolders(this.db, meetingId)) {
      const member = await findMemberForUser(this.db, meetingId, holderUser(holder.identity));
      if (member?.id !== holder.participantId) removed.push(holder);
    }
    if (!removed.length) return false;
    const replaced = await replaceMediaKey(this.db, meetingId, stored.epoch, this.pins.encrypt(newKey()));
    await deleteKeyHolders(this.db, meetingId, removed);
    return replaced;
  }
}

/** Long-lived secret: straight from crypto.randomBytes, not the pooled buffer (see platform/crypto.ts). */
const newKey = () => crypto.randomBytes(32).toString('base64url');

/** The same order findMemberForUser matches in: agency id first, then the keyed personnummer hash. */
export function holderIdentity(user: Pick<SessionUser, 'afId' | 'pinHash'>): string | null {
  if (user.afId) return `af:${user.afId}`;
  if (user.pinHash) return `pin:${user.pinHash}`;
  return null;
}

function holderUser(identity: string): Pick<SessionUser, 'afId' | 'pinHash'> {
  if (identity.startsWith('af:')) return { afId: identity.slice(3), pinHash: null };
  return { afId: null, pinHash: identity.startsWith('pin:') ? identity.slice(4) : null };
}
