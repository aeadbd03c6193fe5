import { useTexts } from '../../../i18n/use-texts.ts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLoaderData, useParams } from 'react-router';
import { RequireLogin } from '../../session/components/require-login.tsx';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { allTiles, CallModel, type StreamTile } from '../model/call-model.ts';
import { gridFit, nobodySendsVideo } from '../model/layout.ts';
import { callStatus, canShareScreen, participantCount, showsSpinner } from '../model/conference-view.ts';
import { isInterpreterTile, mediaByParticipant, sharedScreenTile, tilePinKey, whoIsWho } from '../model/who-is-who.ts';
import { sharerText } from '../model/screen-share.ts';
import { stageLayout } from '../model/stage.ts';
import { CONTROL_TEXTS, PAGE_TEXTS, SHARE_TEXTS, STATUS_TEXTS, TOOLBAR_TEXTS } from '../model/texts.ts';
import { useCallState } from '../hooks/use-call-state.ts';
import { useErrorReporting } from '../hooks/use-error-reporting.ts';
import { useElementSize } from '../hooks/use-element-size.ts';
import { useMediaSession } from '../hooks/use-media-session.ts';
import type { EarlyCall } from '../media/call-start.ts';
import { usePins } from '../hooks/use-pins.ts';
import { useScreenShare } from '../hooks/use-screen-share.ts';
import { useLeave } from '../hooks/use-leave.ts';
import { useConnectionFailedInChat, useDeviceClass, useKeepAlive, useParticipantCountMemory } from '../hooks/use-call-upkeep.ts';
import { ConsentRequired } from '../components/consent-required.tsx';
import { VideoTile } from '../components/video-tile.tsx';
import { SidePanel } from '../components/side-panel.tsx';
import { ControlBar } from '../components/control-bar.tsx';
import { ErrorPanel } from '../components/error-panel.tsx';
import { HelpPopover } from '../components/help-popover.tsx';
import { ForcedMuteBanner } from '../components/forced-mute-banner.tsx';
import { SettingsDialog } from '../components/settings-dialog.tsx';
import { TakeoverDialog } from '../components/takeover-dialog.tsx';
import { TileActionsContext, tileExtras, type TileActions } from '../components/tile-extras.tsx';
import { forceMute } from '../api/force-mute.ts';
import { useMinisGestures } from '../components/use-minis-gestures.ts';
import { conferenceSlots } from '../slots.ts';
import '../conference.css';
import { LanguageSwitcher } from '../../../i18n/language-switcher.tsx';

export function ConferencePage() {
  // The texts are read in the screen's language; this re-renders the page when the language changes.
  useTexts();
  useDocumentTitle(PAGE_TEXTS.pageTitle);
  return (
    // Webcast visitors (anonymous sessions) belong here too.
    <RequireLogin allowWebcastSession>
      <Conference />
    </RequireLogin>
  );
}

type Panel = 'chat' | 'participants' | null;

/** Without the participants feature plugged in (unit tests of the page): the media connections alone count. */
const noPresence = (): number | null => null;

function Conference() {
  // The texts are read in the screen's language; this re-renders the page when the language changes.
  useTexts();
  const { id = '' } = useParams();
  // The call the route's loader started (call-start.ts): its model, whose media may already be connecting.
  const loaded = useLoaderData<EarlyCall | null>();
  const early = loaded?.meetingId === id ? loaded : null;
  const model = useMemo(() => early?.model ?? new CallModel(), [early]);
  const state = useCallState(model);
  // Felsökning hears about this call's errors (a code and the text shown).
  useErrorReporting(id, state.errors);
  useConnectionFailedInChat(id, state.errors);
  const { session, meeting, consentMissing } = useMediaSession(id, model, early);
  useKeepAlive();
  useDeviceClass(model);
  const present = (conferenceSlots.usePresentCount ?? noPresence)(id);
  const count = participantCount(state, present);
  useParticipantCountMemory(state.isPublicMeeting, count);
  const leave = useLeave(id, meeting, count, session);
  const share = useScreenShare(id, model, state, session);
  const pins = usePins(id);
  const [videoArea, videoAreaSize] = useElementSize<HTMLElement>();
  const [panel, setPanel] = useState<Panel>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const currentDevices = useCallback(() => session.current?.currentDevices() ?? { audio: null, video: null }, [session]);

  const who = whoIsWho(meeting?.participants ?? [], state);
  const extrasOf = (tile: StreamTile) => tileExtras(tile, who, pins.pins, state);
  const togglePin = pins.toggle;
  // The same object from render to render (the pins aside), so that a tile showing the same skips its render.
  const tileActions = useMemo(
    (): TileActions => ({
      meetingId: id,
      maximise: (streamId) => model.maximise(streamId),
      minimise: () => model.minimise(),
      togglePin,
      toggleBlur: () => void session.current?.setBlur(!model.getState().blur.on),
      forceMute: (connectionId) => void forceMute(id, connectionId).catch((err: Error) => model.addError('FORCE_MUTE_FAILED', err.message)),
    }),
    [id, model, session, togglePin],
  );
  const canShare = canShareScreen(typeof navigator.mediaDevices?.getDisplayMedia === 'function', state);
  const sharer = sharerText(state);
  const shareTile = sharedScreenTile(state);

  const tiles = allTiles(state);
  const view = stageLayout({
    tiles,
    focusedStreamId: state.streamWithFocus?.streamId ?? null,
    showMinis: state.showMinis && panel !== 'participants',
    interpreters: tiles.filter((t) => isInterpreterTile(who, t)).map((t) => t.streamId),
    pinned: tiles.filter((t) => pins.pins.includes(tilePinKey(who, t))).map((t) => t.streamId),
  });
  // The interpreters' videos are the last this page lowers when its downlink is short (model/video-layers.ts). Handed
  // on after every render: the session may be made after the interpreters are known, and setting them is cheap.
  const interpreterIds = view.kept.filter((streamId) => tiles.some((t) => t.streamId === streamId && isInterpreterTile(who, t)));
  useEffect(() => session.current?.videoLayers.setInterpreters(interpreterIds));
  const minisGestures = useMinisGestures(() => model.toggleMinis(view.side.length > 0));
  const status = callStatus(state, present);
  const loading = showsSpinner(state);
  // Spec §2's 'no streams' status: in the centre when there are no tiles, above the initials posters otherwise.
  const noVideo = nobodySendsVideo(state.connectionStatus, view.main);
  const fit = view.mainClass.startsWith('grid-') && videoAreaSize ? gridFit(view.main.length, videoAreaSize.width, videoAreaSize.height) : null;
  const ChatPanel = conferenceSlots.chatPanel;
  const ParticipantsPanel = conferenceSlots.participantsPanel;
  const UnreadBadge = conferenceSlots.unreadBadge;
  const panelProps = { meetingId: id, connectionId: state.connectionId, displayName: state.displayName, media: mediaByParticipant(who, state), onClose: () => setPanel(null) };
  const panelContent = panel === 'chat' && ChatPanel ? <ChatPanel {...panelProps} /> : panel === 'participants' && ParticipantsPanel ? <ParticipantsPanel {...panelProps} /> : null;
  const canPublish = state.capabilities.publish;

  return (
    <div className={`conference conference--${state.device}`} data-connection-status={state.connectionStatus}>
      <header className="conference-toolbar">
        <h1 className="visually-hidden">{PAGE_TEXTS.heading}</h1>
        <HelpPopover />
        {sharer && <span className="conference-toolbar__sharer">{sharer}</span>}
        {shareTile && (
          <button type="button" className="conference-toolbar__share-focus" onClick={() => (state.streamWithFocus?.streamId === shareTile ? model.minimise() : model.maximise(shareTile))}>
            {state.streamWithFocus?.streamId === shareTile ? SHARE_TEXTS.minimiseShare : SHARE_TEXTS.maximiseShare}
          </button>
        )}
        <span className="conference-toolbar__name">{state.displayName}</span>
        <LanguageSwitcher className="conference-toolbar__language" />
        {canPublish && (
          <button type="button" onClick={() => setSettingsOpen(true)}>
            {TOOLBAR_TEXTS.settings}
          </button>
        )}
        {view.mainClass.startsWith('focus') && state.streamWithFocus?.streamId !== shareTile && (
          <button type="button" className="conference-toolbar__focus" onClick={() => model.minimise()}>
            {TOOLBAR_TEXTS.minimise}
          </button>
        )}
      </header>
      {/* When no stream is shown the status stands in the centre instead; the live region stays for screen readers. */}
      <p className={`call-status${consentMissing || (!loading && view.main.length === 0 && !noVideo) ? ' visually-hidden' : ''}`} role="status" aria-live="polite">
        {consentMissing ? '' : status}
      </p>
      {/* Always in the page, so the refusal is announced when its text appears. */}
      <p className="stage-notice" role="status" aria-live="polite">
        {pins.notice}
      </p>
      <TileActionsContext.Provider value={tileActions}>
      <div className="conference-body">
        <main className="video-area" ref={videoArea} data-tiles={view.main.length} {...minisGestures}>
          {consentMissing ? (
            <ConsentRequired meetingId={id} message={consentMissing} />
          ) : loading ? (
            <div className="spinner" role="progressbar" aria-label={STATUS_TEXTS.connecting}>
              <div className="spinner__circle" />
            </div>
          ) : view.main.length === 0 ? (
            <p className="no-streams" role={noVideo ? 'status' : undefined} aria-hidden={noVideo ? undefined : true}>
              {noVideo ? STATUS_TEXTS.noStreams : status}
            </p>
          ) : (
            <div
              className={`main-grid ${view.mainClass}${noVideo ? ' main-grid--no-video' : ''}`}
              style={fit ? { gridTemplateColumns: `repeat(${fit.columns}, ${fit.tileWidth}px)`, gridTemplateRows: `repeat(${fit.rows}, ${fit.tileHeight}px)`, justifyContent: 'center', alignContent: 'center' } : undefined}
            >
              {view.main.map((t) => (
                <VideoTile key={t.streamId} tile={t} focused={t.streamId === state.streamWithFocus?.streamId} extras={extrasOf(t)} />
              ))}
              {noVideo && (
                <p className="no-streams no-streams--over" role="status">
                  {STATUS_TEXTS.noStreams}
                </p>
              )}
            </div>
          )}
          {conferenceSlots.captions && !consentMissing && !loading && <conferenceSlots.captions meetingId={id} />}
        </main>
        <SidePanel
          minis={view.showSide ? view.side : []}
          oneColumn={view.sideOneColumn}
          focusedStreamId={state.streamWithFocus?.streamId ?? null}
          extrasOf={extrasOf}
          panel={panelContent}
        />
      </div>
      </TileActionsContext.Provider>
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
        leaveLabel={canPublish ? CONTROL_TEXTS.hangUp : CONTROL_TEXTS.leave}
        onLeave={() => void leave()}
        canShare={canShare}
        sharing={state.isSharingScreen}
        onToggleShare={share.toggle}
      />
      <TakeoverDialog name={share.takeoverOf?.displayName ?? null} onConfirm={share.confirmTakeover} onCancel={share.cancelTakeover} />
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
