import { useCallback, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import type { ConferenceMeeting } from '@videomote/contract/media';
import { raisedCount } from '../model/layout.ts';
import type { MediaSession } from '../media/media-session.ts';
import { updateParticipantCount } from '../api/update-participant-count.ts';
import { PARTICIPANT_COUNT_KEY } from './use-call-upkeep.ts';

/**
 * 'Lägg på' / 'Lämna samtalet': a webcast's moderator stores the largest count seen (spec §9), the session ends,
 * the rating dialog is asked for and the user goes to the start page.
 */
export function useLeave(meetingId: string, meeting: ConferenceMeeting | null, participantCount: number, session: RefObject<MediaSession | null>): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    const me = meeting?.participants.find((p) => p.currentUser);
    if (meeting?.type === 1 && me?.moderator) {
      const count = raisedCount(localStorage.getItem(PARTICIPANT_COUNT_KEY), participantCount);
      await updateParticipantCount(meetingId, count).catch(() => {});
    }
    localStorage.removeItem(PARTICIPANT_COUNT_KEY);
    session.current?.close();
    session.current = null;
    window.dispatchEvent(new CustomEvent('rate-call', { detail: { meetingId } }));
    navigate('/');
  }, [meeting, participantCount, meetingId, navigate, session]);
}
