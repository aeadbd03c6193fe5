import crypto from 'node:crypto';
import type { MediaKey } from '@videomote/contract/media';
import type { Db, Queryable } from '../../platform/db.ts';
import type { PinCrypto } from '../../platform/crypto.ts';
import type { SessionUser } from '../../platform/session.ts';
import { forbidden } from '../../platform/errors.ts';
import { findMeeting, findMemberForUser, membershipOf, type MeetingSummary, type Membership } from '../meetings/meeting-membership.ts';
import { keyReplacement } from './media-key-rules.ts';
import { addKeyHolder, deleteKeyHolders, findMediaKey, insertMediaKey, listKeyHolders, replaceMediaKey, type KeyHolder } from './media-keys.repository.ts';

/**
 * The meeting's end-to-end media key: 256 bits from the operating system's CSPRNG, made by the server on first
 * use, stored encrypted at rest with the personnummer's key (a database dump alone opens no call), and handed only
 * to people `admit` (media-admission.ts) let in. Janus never sees it: the browsers encrypt every frame with it.
 *
 * SECURITY: the key is a secret like a session token. It is never logged, never put in an error, and leaves
 * the server only in the gettoken answer and the `/media` `mediaKey` message, both to an admitted member.
 */
export class MediaKeys {
  /** Told after this process replaced a key outside rotateIfStale (a hand-out found the meeting type changed). */
  onRotated: (meetingId: string) => void = () => {};

  constructor(
    private readonly db: Db,
    private readonly pins: PinCrypto,
  ) {}

  /** The meeting's current key, made now if it has none, and replaced first if it was made for another meeting type. */
  async current(meeting: Pick<MeetingSummary, 'id' | 'type'>): Promise<MediaKey> {
    const { key, replaced } = await this.currentIn(this.db, meeting, false);
    if (replaced) this.onRotated(meeting.id);
    return key;
  }

  private async currentIn(db: Queryable, meeting: Pick<MeetingSummary, 'id' | 'type'>, lock: boolean): Promise<{ key: MediaKey; replaced: boolean }> {
    let stored = (await findMediaKey(db, meeting.id, lock)) ?? (await insertMediaKey(db, meeting.id, this.pins.encrypt(newKey()), meeting.type, lock));
    let replaced = false;
    if (keyReplacement(stored, meeting, 0) === 'type-changed') {
      replaced = await replaceMediaKey(db, meeting.id, stored.epoch, this.pins.encrypt(newKey()), meeting.type);
      stored = (await findMediaKey(db, meeting.id, lock))!;
    }
    return { key: { epoch: stored.epoch, key: this.pins.decrypt(stored.keyEncrypted) }, replaced };
  }

  /**
   * The current key for an admitted member. A booked participant is remembered as a holder (as who they are now),
   * so that removing them from the booking replaces the key; a webcast visitor cannot be removed from a booking.
   *
   * SECURITY: `membership` was checked when the request was admitted; a removal (and the key's replacement) may have
   * come since. So the membership is checked again in the transaction that holds the key's row, which rotateIfStale
   * takes too: either this hand-out comes first and its holder is seen by the rotation, or it comes after and finds
   * the person gone (403), never the rotated key in a removed person's hands.
   */
  async handTo(membership: Membership, user: SessionUser): Promise<MediaKey> {
    const meetingId = membership.meeting.id;
    const { key, replaced } = await this.db.transaction(async (tx) => {
      const held = await this.currentIn(tx, membership.meeting, true);
      const now = await membershipOf(tx, meetingId, user);
      const sameMember = now?.kind === membership.kind && (now.kind === 'visitor' || (membership.kind === 'participant' && now.participant.id === membership.participant.id));
      if (!now || !sameMember) throw forbidden('Du är inte deltagare i det här mötet');
      // The meeting's type may have changed since the admission too: the key must be the one made for it now.
      const fresh = now.meeting.type === membership.meeting.type ? held : await this.currentIn(tx, now.meeting, true);
      if (now.kind === 'participant') {
        const identity = holderIdentity(user);
        if (identity) await addKeyHolder(tx, meetingId, { participantId: now.participant.id, identity });
      }
      return { key: fresh.key, replaced: held.replaced || fresh.replaced };
    });
    // After the commit: the other connections then read the new key.
    if (replaced) this.onRotated(meetingId);
    return key;
  }

  /**
   * After a change of the booking: when the meeting's type changed since the key was made, or someone who was handed
   * it is no longer that participant (removed, or the row now names another person), a new key replaces it. Answers
   * whether this call replaced it; the caller then hands the new key to those left. A removed one's old key opens
   * nothing encrypted after that.
   */
  async rotateIfStale(meetingId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const stored = await findMediaKey(tx, meetingId, true);
      const meeting = stored ? await findMeeting(tx, meetingId) : null;
      if (!stored || !meeting) return false;
      const removed: KeyHolder[] = [];
      for (const holder of await listKeyHolders(tx, meetingId)) {
        const member = await findMemberForUser(tx, meetingId, holderUser(holder.identity));
        if (member?.id !== holder.participantId) removed.push(holder);
      }
      if (!keyReplacement(stored, meeting, removed.length)) return false;
      const replaced = await replaceMediaKey(tx, meetingId, stored.epoch, this.pins.encrypt(newKey()), meeting.type);
      await deleteKeyHolders(tx, meetingId, removed);
      return replaced;
    });
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
