import { useEffect, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import type { ConferenceMeeting } from '@videomote/contract/media';
import { AUDIO_DEVICE_KEY, VIDEO_DEVICE_KEY } from '@videomote/contract/lobby';
import { useUser } from '../../session/session-context.tsx';
import { loadClientConfig } from '../../../lib/client-config.ts';
import { ApiError } from '../../../lib/api-client.ts';
import type { CallModel } from '../model/call-model.ts';
import { CONSENT_TEXTS } from '../model/texts.ts';
import { MediaSession } from '../media/media-session.ts';
import { takeToken } from '../api/get-token.ts';

export interface MediaSessionHandle {
  /** The live session (null before gettoken answered and after leaving). */
  session: RefObject<MediaSession | null>;
  /** The meeting as gettoken gave it: its participants, their roles, who is the current user. */
  meeting: ConferenceMeeting | null;
  /** The server's refusal for want of the lobby's consent: its message, shown with the way back to the lobby. */
  consentMissing: string | null;
}

function readLabel(key: string): string | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return typeof v === 'string' && v ? v : null;
  } catch {
    return null;
  }
}

/**
 * Connects on entry and disconnects on leaving the route (spec §2): the media token from gettoken, then a
 * MediaSession that feeds the call model. A webcast visitor without a name is sent to give one first.
 */
export function useMediaSession(meetingId: string, model: CallModel): MediaSessionHandle {
  const user = useUser();
  const navigate = useNavigate();
  const session = useRef<MediaSession | null>(null);
  const [meeting, setMeeting] = useState<ConferenceMeeting | null>(null);
  const [consentMissing, setConsentMissing] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    const visitor = user.identityKind === 'anonymous';
    const displayName = visitor ? user.ciamGivenName || localStorage.getItem('displayName') || '' : `${user.ciamGivenName} ${user.ciamFamilyName}`.trim();
    if (visitor && !displayName) {
      // A webcast visitor needs a name first (spec §2 guard).
      navigate(`/meetings/${meetingId}/conference/publicaccess`, { replace: true });
      return;
    }
    model.connecting();
    Promise.all([takeToken(meetingId, displayName), loadClientConfig()])
      .then(([data, config]) => {
        if (cancelled) return;
        const me = data.meeting.participants.find((p) => p.currentUser);
        // The session first: its socket is made before the model changes below render the call screen.
        const s = new MediaSession({
          meetingId,
          token: data.tokenData.token,
          mediaBaseUrl: config.mediaBaseUrl,
          // The token's list carries this participant's own TURN credentials; the config's only password-free servers.
          iceServers: (data.iceServers ?? config.iceServers) as RTCIceServer[],
          model,
          preferred: { video: readLabel(VIDEO_DEVICE_KEY), audio: readLabel(AUDIO_DEVICE_KEY) },
          onEnded: () => navigate('/'),
          mediaKey: data.mediaKey,
          videoLayers: config.videoLayers,
        });
        session.current = s;
        // Browser tests read the peer connections' stats through this hook; it exists only when asked for.
        if (new URLSearchParams(window.location.search).has('vmtest')) {
          (window as unknown as Record<string, unknown>).__videomoteTest = { session: s, model, startedAt: performance.now() };
        }
        void s.start();
        model.setMeeting(meetingId, data.meeting.type === 1, me?.displayName ?? displayName);
        setMeeting(data.meeting);
      })
      .catch((err: { status?: number }) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.errors[0]?.fields[0] === 'consent') {
          setConsentMissing(err.errors[0].message || CONSENT_TEXTS.fallback);
          return;
        }
        // Not a member (403) or no such meeting (404): no retries, the error page explains, as the lobby does.
        if (err.status === 403 || err.status === 404) navigate(`/error?status=${err.status}`, { replace: true });
        else model.connectionFailed();
      });
    return () => {
      cancelled = true;
      session.current?.close();
      session.current = null;
    };
  }, [meetingId, user, model, navigate]);

  return { session, meeting, consentMissing };
}
