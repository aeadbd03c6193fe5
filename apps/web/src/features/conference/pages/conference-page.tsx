import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { ConferenceMeeting } from '@videomote/contract/media';
import { AUDIO_DEVICE_KEY, VIDEO_DEVICE_KEY } from '@videomote/contract/lobby';
import { RequireLogin } from '../../session/components/require-login.tsx';
import { useUser } from '../../session/session-context.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { loadClientConfig } from '../../../lib/client-config.ts';
import { allTiles, CallModel } from '../model/call-model.ts';
import { deviceFor, KEEP_ALIVE_MS, layout, raisedCount, statusText } from '../model/layout.ts';
import { TEXTS } from '../model/texts.ts';
import { MediaSession } from '../media/media-session.ts';
import { useCallState } from '../hooks/use-call-state.ts';
import { getToken } from '../api/get-token.ts';
import { keepAlive } from '../api/keep-alive.ts';
import { updateParticipantCount } from '../api/update-participant-count.ts';
import { VideoTile } from '../components/video-tile.tsx';
import { SidePanel } from '../components/side-panel.tsx';
import { ControlBar } from '../components/control-bar.tsx';
import { ErrorPanel } from '../components/error-panel.tsx';
import { HelpPopover } from '../components/help-popover.tsx';
import { conferenceSlots } from '../slots.ts';
import '../conference.css';

const COUNT_KEY = 'meeting_participant_count';

function readLabel(key: string): string | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return typeof v === 'string' && v ? v : null;
  } catch {
    return null;
  }
}

export function ConferencePage() {
  useDocumentTitle(TEXTS.pageTitle);
  return (
    // Webcast visitors (anonymous sessions) belong here too.
    <RequireLogin allowWebcastSession>
      <Conference />
    </RequireLogin>
  );
}

type Panel = 'chat' | 'participants' | null;

function Conference() {
  const { id = '' } = useParams();
  const user = useUser();
  const navigate = useNavigate();
  const model = useMemo(() => new CallModel(), []);
  const state = useCallState(model);
  const session = useRef<MediaSession | null>(null);
  const [meeting, setMeeting] = useState<ConferenceMeeting | null>(null);
  const [panel, setPanel] = useState<Panel>(null);

  // Connect on entry, disconnect on leaving the route (spec §2).
  useEffect(() => {
    let cancelled = false;
    const visitor = user.identityKind === 'anonymous';
    const displayName = visitor ? user.ciamGivenName || localStorage.getItem('displayName') || '' : `${user.ciamGivenName} ${user.ciamFamilyName}`.trim();
    if (visitor && !displayName) {
      // A webcast visitor needs a name first (spec §2 guard).
      navigate(`/meetings/${id}/conference/publicaccess`, { replace: true });
      return;
    }
    model.connecting();
    Promise.all([getToken(id, displayName), loadClientConfig()])
      .then(([data, config]) => {
        if (cancelled) return;
        const me = data.meeting.participants.find((p) => p.currentUser);
        model.setMeeting(id, data.meeting.type === 1, me?.displayName ?? displayName);
        setMeeting(data.meeting);
        const s = new MediaSession({
          meetingId: id,
          token: data.tokenData.token,
          mediaBaseUrl: config.mediaBaseUrl,
          iceServers: config.iceServers as RTCIceServer[],
          model,
          preferred: { video: readLabel(VIDEO_DEVICE_KEY), audio: readLabel(AUDIO_DEVICE_KEY) },
          onEnded: () => navigate('/'),
        });
        session.current = s;
        // Browser tests read the peer connections' stats through this hook; it exists only when asked for.
        if (new URLSearchParams(window.location.search).has('vmtest')) {
          (window as unknown as Record<string, unknown>).__videomoteTest = { session: s, model, startedAt: performance.now() };
        }
        void s.start();
      })
      .catch(() => {
        if (!cancelled) model.connectionFailed();
      });
    return () => {
      cancelled = true;
      session.current?.close();
      session.current = null;
    };
  }, [id, user, model, navigate]);

  // Keep the session alive while on the meeting screen (spec §4, 30 s).
  useEffect(() => {
    const timer = setInterval(() => void keepAlive().catch(() => {}), KEEP_ALIVE_MS);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    const onResize = () => model.setDevice(deviceFor(window.innerWidth, window.innerHeight));
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [model]);

  // A webcast remembers the largest number of participants seen; it is only ever raised (spec §9).
  const participantCount = state.connectionStatus === 'connected' ? state.connections.length : 0;
  useEffect(() => {
    if (!state.isPublicMeeting || participantCount === 0) return;
    localStorage.setItem(COUNT_KEY, String(raisedCount(localStorage.getItem(COUNT_KEY), participantCount)));
  }, [state.isPublicMeeting, participantCount]);

  const leave = useCallback(async () => {
    const me = meeting?.participants.find((p) => p.currentUser);
    if (meeting?.type === 1 && me?.moderator) {
      const count = raisedCount(localStorage.getItem(COUNT_KEY), participantCount);
      await updateParticipantCount(id, count).catch(() => {});
    }
    localStorage.removeItem(COUNT_KEY);
    session.current?.close();
    session.current = null;
    window.dispatchEvent(new CustomEvent('rate-call', { detail: { meetingId: id } }));
    navigate('/');
  }, [meeting, participantCount, id, navigate]);

  const tiles = allTiles(state);
  const view = layout({ tiles, focusedStreamId: state.streamWithFocus?.streamId ?? null, showMinis: state.showMinis && panel !== 'participants' });
  const status = statusText(state.reconnecting ? 'connecting' : state.connectionStatus, participantCount);
  const loading = state.connectionStatus === 'connecting' && !state.reconnecting;
  const ChatPanel = conferenceSlots.chatPanel;
  const ParticipantsPanel = conferenceSlots.participantsPanel;
  const UnreadBadge = conferenceSlots.unreadBadge;
  // Media state per participant id (the participants panel's microphone and camera icons); the own from the publisher.
  const ownParticipantId = meeting?.participants.find((p) => p.currentUser)?.id ?? null;
  const media: Record<string, { hasAudio: boolean; hasVideo: boolean }> = {};
  for (const c of state.connections) if (c.participantId) media[c.participantId] = { hasAudio: c.hasAudio, hasVideo: c.hasVideo };
  if (ownParticipantId) media[ownParticipantId] = { hasAudio: state.own.hasAudio, hasVideo: state.own.hasVideo };
  const panelProps = { meetingId: id, connectionId: state.connectionId, displayName: state.displayName, media, onClose: () => setPanel(null) };
  const panelContent = panel === 'chat' && ChatPanel ? <ChatPanel {...panelProps} /> : panel === 'participants' && ParticipantsPanel ? <ParticipantsPanel {...panelProps} /> : null;
  const canPublish = state.capabilities.publish;

  return (
    <div className={`conference conference--${state.device}`} data-connection-status={state.connectionStatus}>
      <header className="conference-toolbar">
        <h1 className="visually-hidden">Pågående möte</h1>
        <HelpPopover />
        <span className="conference-toolbar__name">{state.displayName}</span>
        {view.mainClass.startsWith('focus') && (
          <button type="button" className="conference-toolbar__focus" onClick={() => model.minimise()}>
            {TEXTS.minimise}
          </button>
        )}
      </header>
      <p className="call-status" role="status" aria-live="polite">
        {status}
      </p>
      <div className="conference-body">
        <main
          className="video-area"
          data-tiles={view.main.length}
          onDoubleClick={() => model.toggleMinis(view.side.length > 0)}
        >
          {loading ? (
            <div className="spinner" role="progressbar" aria-label={TEXTS.connecting}>
              <div className="spinner__circle" />
            </div>
          ) : view.main.length === 0 ? (
            <p className="no-streams">{status}</p>
          ) : (
            <div className={`main-grid ${view.mainClass}`}>
              {view.main.map((t) => (
                <VideoTile key={t.streamId} tile={t} focused={t.streamId === state.streamWithFocus?.streamId} onMaximise={(s) => model.maximise(s)} onMinimise={() => model.minimise()} />
              ))}
            </div>
          )}
        </main>
        <SidePanel
          minis={view.showSide ? view.side : []}
          oneColumn={view.sideOneColumn}
          focusedStreamId={state.streamWithFocus?.streamId ?? null}
          onMaximise={(s) => model.maximise(s)}
          onMinimise={() => model.minimise()}
          panel={panelContent}
        />
      </div>
      <ErrorPanel errors={state.errors} onDismiss={(key) => model.removeError(key)} />
      <ControlBar
        canPublish={canPublish}
        ownAlive={state.own.alive}
        hasAudio={state.own.hasAudio}
        hasVideo={state.own.hasVideo}
        onToggleAudio={() => session.current?.setAudio(!state.own.hasAudio)}
        onToggleVideo={() => session.current?.setVideo(!state.own.hasVideo)}
        chatOpen={panel === 'chat'}
        participantsOpen={panel === 'participants'}
        onToggleChat={() => setPanel(panel === 'chat' ? null : 'chat')}
        onToggleParticipants={() => setPanel(panel === 'participants' ? null : 'participants')}
        unreadBadge={UnreadBadge ? <UnreadBadge meetingId={id} /> : null}
        leaveLabel={canPublish ? TEXTS.hangUp : TEXTS.leave}
        onLeave={() => void leave()}
      />
    </div>
  );
}
