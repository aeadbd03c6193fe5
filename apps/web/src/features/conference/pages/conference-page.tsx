import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { ConferenceMeeting } from '@videomote/contract/media';
import { AUDIO_DEVICE_KEY, VIDEO_DEVICE_KEY } from '@videomote/contract/lobby';
import { RequireLogin } from '../../session/components/require-login.tsx';
import { useUser } from '../../session/session-context.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { loadClientConfig } from '../../../lib/client-config.ts';
import { allTiles, CallModel } from '../model/call-model.ts';
import { deviceFor, gridFit, KEEP_ALIVE_MS, nobodySendsVideo, raisedCount, statusText } from '../model/layout.ts';
import { CONSENT_TEXTS, TEXTS } from '../model/texts.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { ConsentRequired } from '../components/consent-required.tsx';
import { useElementSize } from '../hooks/use-element-size.ts';
import { MediaSession } from '../media/media-session.ts';
import { useCallState } from '../hooks/use-call-state.ts';
import { useErrorReporting } from '../hooks/use-error-reporting.ts';
import { getToken } from '../api/get-token.ts';
import { keepAlive } from '../api/keep-alive.ts';
import { updateParticipantCount } from '../api/update-participant-count.ts';
import { VideoTile } from '../components/video-tile.tsx';
import { SidePanel } from '../components/side-panel.tsx';
import { ControlBar } from '../components/control-bar.tsx';
import { ErrorPanel } from '../components/error-panel.tsx';
import { HelpPopover } from '../components/help-popover.tsx';
import { conferenceSlots } from '../slots.ts';
import { remoteSharer, SHARE_TEXTS, shareAction, sharerText } from '../model/screen-share.ts';
import { MORE_TEXTS } from '../model/conference-texts.ts';
import { forceMute } from '../api/force-mute.ts';
import { forceUnpublish } from '../api/force-unpublish.ts';
import { ForcedMuteBanner } from '../components/forced-mute-banner.tsx';
import { SettingsDialog } from '../components/settings-dialog.tsx';
import { TakeoverDialog } from '../components/takeover-dialog.tsx';
import { TileExtrasContext } from '../components/tile-extras-context.ts';
import { AdminSection, BlurToggle, SignalMenu } from '../components/tile-tools.tsx';
import type { StreamTile } from '../model/call-model.ts';
import { loadPins, pinKey, savePins, stageLayout, togglePin } from '../model/stage.ts';
import { KeptMark, PinButton } from '../components/pin-button.tsx';
import { STAGE_TEXTS } from '../model/stage-texts.ts';
import { useMinisGestures } from '../components/use-minis-gestures.ts';
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
  // Felsökning hears about this call's errors (a code and the text shown, issue 8).
  useErrorReporting(id, state.errors);
  const session = useRef<MediaSession | null>(null);
  const [meeting, setMeeting] = useState<ConferenceMeeting | null>(null);
  // The server's refusal for want of the lobby's consent: its message, with the way back to the lobby.
  const [consentMissing, setConsentMissing] = useState<string | null>(null);
  const [videoArea, videoAreaSize] = useElementSize<HTMLElement>();
  const [panel, setPanel] = useState<Panel>(null);
  // Spec §4: a failed connection also adds an ERROR notification to the chat.
  const connectionFailed = state.errors.some((e) => e.key === 'connectionFailed');
  useEffect(() => {
    if (connectionFailed) conferenceSlots.notifyChat?.(id, 'ERROR', TEXTS.connectionFailed);
  }, [connectionFailed, id]);
  const [shareAsk, setShareAsk] = useState<{ connectionId: string; displayName: string } | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Issue 10: this user's pinned tiles, per meeting, surviving reloads and reconnects.
  const [pins, setPins] = useState<string[]>(() => loadPins(typeof localStorage === 'undefined' ? null : localStorage, id));
  // Why a third pin did nothing; cleared by the next pin change.
  const [pinNotice, setPinNotice] = useState<string | null>(null);

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

  // Screen sharing (spec §4): stop own, ask before taking over another's, or start at once.
  const toggleShare = () => {
    const action = shareAction(state);
    if (action.kind === 'stop') session.current?.stopScreenShare();
    else if (action.kind === 'ask') setShareAsk({ connectionId: action.connectionId, displayName: action.displayName });
    else if (action.kind === 'busy') model.addError('SCREEN_SHARE_BUSY', SHARE_TEXTS.busy(action.displayName));
    else void session.current?.startScreenShare();
  };
  const confirmTakeover = () => {
    const ask = shareAsk;
    setShareAsk(null);
    if (!ask) return;
    void session.current?.startScreenShare(async () => {
      // The share may have ended meanwhile (409/404): then there is nothing to take over, and sharing goes on.
      await forceUnpublish(id, ask.connectionId).catch((err: { status?: number }) => {
        if (err.status !== 409 && err.status !== 404) throw err;
      });
    });
  };
  const isModerator = Boolean(meeting?.participants.find((p) => p.currentUser)?.moderator);
  const currentDevices = useCallback(() => session.current?.currentDevices() ?? { audio: null, video: null }, []);
  const baseTileExtras = (tile: StreamTile) => {
    if (tile.isOwn) {
      return tile.videoType === 'camera' && state.blur.supported ? <BlurToggle on={state.blur.on} onToggle={() => void session.current?.setBlur(!state.blur.on)} /> : null;
    }
    if (tile.videoType !== 'camera') return null;
    return (
      <>
        {isModerator && (
          <AdminSection
            tile={tile}
            onForceMute={(connectionId) =>
              void forceMute(id, connectionId).catch((err: Error) => model.addError('FORCE_MUTE_FAILED', err.message))
            }
          />
        )}
        <SignalMenu tile={tile} stats={state.stats[tile.streamId]} received={state.videoLayers[tile.streamId]} />
      </>
    );
  };
  // Issue 10: who a tile is (participant id, stable across reconnects) and the booked role the server gave it.
  const roleById = new Map((meeting?.participants ?? []).map((p) => [p.id, p.role]));
  const whoOf = (t: StreamTile) => (t.isOwn ? (meeting?.participants.find((p) => p.currentUser)?.id ?? null) : (state.connections.find((c) => c.connectionId === t.connectionId)?.participantId ?? null));
  const pinOf = (t: StreamTile) => pinKey(whoOf(t) ?? t.displayName, t.videoType);
  const isInterpreter = (t: StreamTile) => t.videoType === 'camera' && t.hasVideo && roleById.get(whoOf(t) ?? '') === 'SignLanguageInterpreter';
  const TileIdentity = conferenceSlots.tileIdentity;
  const tileExtras = (tile: StreamTile) => {
    const pinned = pins.includes(pinOf(tile));
    const participantId = whoOf(tile);
    return (
      <>
        {(isInterpreter(tile) || pinned) && <KeptMark interpreter={isInterpreter(tile)} />}
        {TileIdentity && participantId && tile.videoType === 'camera' && <TileIdentity meetingId={id} participantId={participantId} />}
        <PinButton
          name={tile.displayName}
          pinned={pinned}
          onToggle={() => {
            const next = togglePin(pins, pinOf(tile));
            setPinNotice(next.refused ? STAGE_TEXTS.pinLimit : null);
            if (next.refused) return;
            setPins(next.pins);
            savePins(localStorage, id, next.pins);
          }}
        />
        {baseTileExtras(tile)}
      </>
    );
  };
  // Not offered where it cannot work: no screen capture in the browser (phones), or no ScreenShare feature (Grupper).
  const canShare = typeof navigator.mediaDevices?.getDisplayMedia === 'function' && state.capabilities.screenShare;
  const sharer = sharerText(state);
  const shareTile = state.isSharingScreen ? 'own-screen' : remoteSharer(state) ? `screen-${remoteSharer(state)!.connectionId}` : null;

  const tiles = allTiles(state);
  const view = stageLayout({
    tiles,
    focusedStreamId: state.streamWithFocus?.streamId ?? null,
    showMinis: state.showMinis && panel !== 'participants',
    interpreters: tiles.filter(isInterpreter).map((t) => t.streamId),
    pinned: tiles.filter((t) => pins.includes(pinOf(t))).map((t) => t.streamId),
  });
  // The interpreters' videos are the last this page lowers when its downlink is short (model/video-layers.ts).
  const interpreterIds = view.kept.filter((streamId) => tiles.some((t) => t.streamId === streamId && isInterpreter(t))).join(' ');
  useEffect(() => session.current?.videoLayers.setInterpreters(interpreterIds ? interpreterIds.split(' ') : []), [interpreterIds]);
  const minisGestures = useMinisGestures(() => model.toggleMinis(view.side.length > 0));
  // While a media connection restarts its ICE the call goes on (same tiles), and the status says so (spec §7).
  const status =
    state.mediaReconnecting && state.connectionStatus === 'connected' && !state.reconnecting
      ? TEXTS.reconnecting
      : statusText(state.reconnecting ? 'connecting' : state.connectionStatus, participantCount);
  const loading = (state.connectionStatus === 'connecting' || state.connectionStatus === 'idle') && !state.reconnecting;
  // Spec §2's 'no streams' status: in the centre when there are no tiles, above the initials posters otherwise.
  const noVideo = nobodySendsVideo(state.connectionStatus, view.main);
  const fit = view.mainClass.startsWith('grid-') && videoAreaSize ? gridFit(view.main.length, videoAreaSize.width, videoAreaSize.height) : null;
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
        {sharer && <span className="conference-toolbar__sharer">{sharer}</span>}
        {shareTile && (
          <button type="button" className="conference-toolbar__share-focus" onClick={() => (state.streamWithFocus?.streamId === shareTile ? model.minimise() : model.maximise(shareTile))}>
            {state.streamWithFocus?.streamId === shareTile ? SHARE_TEXTS.minimiseShare : SHARE_TEXTS.maximiseShare}
          </button>
        )}
        <span className="conference-toolbar__name">{state.displayName}</span>
        {canPublish && (
          <button type="button" onClick={() => setSettingsOpen(true)}>
            {MORE_TEXTS.settings}
          </button>
        )}
        {view.mainClass.startsWith('focus') && state.streamWithFocus?.streamId !== shareTile && (
          <button type="button" className="conference-toolbar__focus" onClick={() => model.minimise()}>
            {TEXTS.minimise}
          </button>
        )}
      </header>
      {/* When no stream is shown the status stands in the centre instead; the live region stays for screen readers. */}
      <p className={`call-status${consentMissing || (!loading && view.main.length === 0 && !noVideo) ? ' visually-hidden' : ''}`} role="status" aria-live="polite">
        {consentMissing ? '' : status}
      </p>
      {/* Always in the page, so the refusal is announced when its text appears. */}
      <p className="stage-notice" role="status" aria-live="polite">
        {pinNotice}
      </p>
      <TileExtrasContext.Provider value={tileExtras}>
      <div className="conference-body">
        <main className="video-area" ref={videoArea} data-tiles={view.main.length} {...minisGestures}>
          {consentMissing ? (
            <ConsentRequired meetingId={id} message={consentMissing} />
          ) : loading ? (
            <div className="spinner" role="progressbar" aria-label={TEXTS.connecting}>
              <div className="spinner__circle" />
            </div>
          ) : view.main.length === 0 ? (
            <p className="no-streams" role={noVideo ? 'status' : undefined} aria-hidden={noVideo ? undefined : true}>
              {noVideo ? TEXTS.noStreams : status}
            </p>
          ) : (
            <div
              className={`main-grid ${view.mainClass}${noVideo ? ' main-grid--no-video' : ''}`}
              style={fit ? { gridTemplateColumns: `repeat(${fit.columns}, ${fit.tileWidth}px)`, gridTemplateRows: `repeat(${fit.rows}, ${fit.tileHeight}px)`, justifyContent: 'center', alignContent: 'center' } : undefined}
            >
              {view.main.map((t) => (
                <VideoTile key={t.streamId} tile={t} focused={t.streamId === state.streamWithFocus?.streamId} onMaximise={(s) => model.maximise(s)} onMinimise={() => model.minimise()} />
              ))}
              {noVideo && (
                <p className="no-streams no-streams--over" role="status">
                  {TEXTS.noStreams}
                </p>
              )}
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
      </TileExtrasContext.Provider>
      <ForcedMuteBanner show={state.forcedMute} onDismiss={() => model.dismissForcedMute()} />
      {conferenceSlots.announcer && <conferenceSlots.announcer meetingId={id} />}
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
        canShare={canShare}
        sharing={state.isSharingScreen}
        onToggleShare={toggleShare}
      />
      <TakeoverDialog name={shareAsk?.displayName ?? null} onConfirm={confirmTakeover} onCancel={() => setShareAsk(null)} />
      {canPublish && (
        <SettingsDialog
          open={settingsOpen}
          onClose={() => setSettingsOpen(false)}
          current={currentDevices}
          onSwitch={(kind, deviceId) => session.current?.switchDevice(kind, deviceId) ?? Promise.reject(new Error('no session'))}
        />
      )}
    </div>
  );
}
