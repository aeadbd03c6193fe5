import { startTransition, useEffect, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import type { ConferenceMeeting } from '@videomote/contract/media';
import { useUser } from '../../session/session-context.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import type { CallModel } from '../model/call-model.ts';
import { CONNECTION_FAILURE_TEXTS, CONSENT_TEXTS } from '../model/texts.ts';
import { guardPath } from '../model/public-access-guard.ts';
import type { MediaSession } from '../media/media-session.ts';
import { startCall, type EarlyCall } from '../media/call-start.ts';

export interface MediaSessionHandle {
  /** The live session (null before gettoken answered and after leaving). */
  session: RefObject<MediaSession | null>;
  /** The meeting as gettoken gave it: its participants, their roles, who is the current user. */
  meeting: ConferenceMeeting | null;
  /** The server's refusal for want of the lobby's consent: its message, shown with the way back to the lobby. */
  consentMissing: string | null;
}

/**
 * Connects on entry and disconnects on leaving the route (spec §2): the call the route's loader started for this
 * meeting (`early`), or else the media token from gettoken and a MediaSession that feeds the call model. A webcast
 * visitor without a name is sent to give one first.
 */
export function useMediaSession(meetingId: string, model: CallModel, early: EarlyCall | null): MediaSessionHandle {
  const user = useUser();
  const navigate = useNavigate();
  const session = useRef<MediaSession | null>(null);
  const [meeting, setMeeting] = useState<ConferenceMeeting | null>(null);
  const [consentMissing, setConsentMissing] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    const visitor = user.identityKind === 'anonymous';
    const displayName = visitor ? user.ciamGivenName || localStorage.getItem('displayName') || '' : `${user.ciamGivenName} ${user.ciamFamilyName}`.trim();
    const started = early?.take() ?? null;
    if (visitor && !displayName) {
      // A webcast visitor needs a name first (spec §2 guard): the room's name form, whose room id the started call's
      // gettoken names; without a started call the guard route finds it.
      const toGuard = (roomId: string | null) => !cancelled && navigate(guardPath(meetingId, roomId), { replace: true });
      if (!started) toGuard(null);
      started?.then(
        (call) => {
          call.session.close();
          toGuard(call.data.meeting.roomId);
        },
        () => toGuard(null),
      );
      return () => {
        cancelled = true;
      };
    }
    (started ?? startCall(meetingId, model, displayName))
      .then(({ data, session: s }) => {
        if (cancelled) return s.close();
        session.current = s;
        s.onEnded = () => navigate('/');
        s.showing();
        const me = data.meeting.participants.find((p) => p.currentUser);
        model.setMeeting(meetingId, data.meeting.type === 1, me?.displayName ?? displayName);
        startTransition(() => setMeeting(data.meeting)); // as the model's changes are shown (use-call-state.ts)
      })
      .catch((err: { status?: number }) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.errors[0]?.fields[0] === 'consent') {
          setConsentMissing(err.errors[0].message || CONSENT_TEXTS.fallback);
          return;
        }
        // Not a member (403) or no such meeting (404): no retries, the error page explains, as the lobby does.
        if (err.status === 403 || err.status === 404) navigate(`/error?status=${err.status}`, { replace: true });
        else model.connectionFailed(tokenFailureText(err));
      });
    return () => {
      cancelled = true;
      session.current?.close();
      session.current = null;
    };
  }, [meetingId, user, model, navigate, early]);

  return { session, meeting, consentMissing };
}

/**
 * Why gettoken failed, for the chat's line: the server's own answer (Swedish, from the contract) when it gave one;
 * else (no answer at all: the network, or a proxy's page) our text, never a browser's English "Failed to fetch".
 */
export function tokenFailureText(err: unknown): string {
  return err instanceof ApiError && err.message.trim() ? err.message : CONNECTION_FAILURE_TEXTS.token;
}
