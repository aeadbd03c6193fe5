import { useEffect } from 'react';
import type { CallModel, CallState } from '../model/call-model.ts';
import { deviceFor, KEEP_ALIVE_MS, raisedCount } from '../model/layout.ts';
import { connectionFailureLine } from '../model/conference-view.ts';
import { keepAlive } from '../api/keep-alive.ts';
import { conferenceSlots } from '../slots.ts';

/** Where a webcast remembers the largest number of participants seen (spec §9). */
export const PARTICIPANT_COUNT_KEY = 'meeting_participant_count';

/** Keeps the session alive while on the meeting screen (spec §4, 30 s). */
export function useKeepAlive(): void {
  useEffect(() => {
    const timer = setInterval(() => void keepAlive().catch(() => {}), KEEP_ALIVE_MS);
    return () => clearInterval(timer);
  }, []);
}

/** The model's device class (phone, tablet, desktop) follows the window's size (spec §9 breakpoints). */
export function useDeviceClass(model: CallModel): void {
  useEffect(() => {
    const onResize = () => model.setDevice(deviceFor(window.innerWidth, window.innerHeight));
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [model]);
}

/** A webcast remembers the largest number of participants seen; it is only ever raised (spec §9). */
export function useParticipantCountMemory(isPublicMeeting: boolean, participantCount: number): void {
  useEffect(() => {
    if (!isPublicMeeting || participantCount === 0) return;
    localStorage.setItem(PARTICIPANT_COUNT_KEY, String(raisedCount(localStorage.getItem(PARTICIPANT_COUNT_KEY), participantCount)));
  }, [isPublicMeeting, participantCount]);
}

/** Spec §4, §8: a failed connection also adds an ERROR notification to the chat, with the failure's message. */
export function useConnectionFailedInChat(meetingId: string, errors: CallState['errors']): void {
  const failure = connectionFailureLine(errors);
  useEffect(() => {
    if (failure) conferenceSlots.notifyChat?.(meetingId, 'ERROR', failure);
  }, [failure, meetingId]);
}
