/**
 * When a meeting's media key must be replaced before anyone is handed it again:
 * - 'type-changed': it was made for another meeting type. A webcast's key went to its anonymous visitors; once the
 *   meeting is a conversation meeting (or the other way round) those who held it must not open the new one's media.
 * - 'holder-removed': someone who was handed it is no longer that participant (removed, or the row names another).
 */
export type KeyReplacement = 'type-changed' | 'holder-removed' | null;

export function keyReplacement(key: { meetingType: number }, meeting: { type: number }, removedHolders: number): KeyReplacement {
  if (key.meetingType !== meeting.type) return 'type-changed';
  return removedHolders > 0 ? 'holder-removed' : null;
}
