import { registerConferenceSlots, type ConferencePanelProps } from '../features/conference/slots.ts';
import { useChat } from '../features/chat/hooks/use-chat.ts';
import { notifyChat } from '../features/chat/hooks/chat-connections.ts';
import { ChatUnreadBadge, ConferenceChatPanel } from '../features/chat/components/conference-chat.tsx';
import { ParticipantsPanel } from '../features/participants/components/participants-panel.tsx';
import { AssuranceLabel } from '../features/participants/components/assurance-label.tsx';
import { LiveAnnouncer } from '../features/participants/components/live-announcer.tsx';
import { isTextInterpreterRole } from '@videomote/contract/meeting-rules';
import { CaptionsOverlay } from '../features/conference/components/captions-overlay.tsx';
import { CaptionInput } from '../features/conference/components/caption-input.tsx';
import { captionsAvailable } from '../features/conference/model/captions.ts';

/**
 * Composes the chat and participants features into the meeting screen's slots. The participants panel lists who
 * is connected to the meeting's chat socket (presence) and lets moderators switch a participant's chat.
 */
function ConferenceParticipantsPanel({ meetingId, onClose, media }: ConferencePanelProps) {
  const { state, toggleIgnore, raiseHand, lowerHand } = useChat({ meetingId });
  return (
    <ParticipantsPanel
      participants={state.participants}
      isWebcast={state.isWebcast}
      moderator={state.moderator}
      ownConnectionId={state.connectionId}
      media={media}
      onToggleChat={toggleIgnore}
      onRaiseHand={raiseHand}
      onLowerHand={lowerHand}
      onClose={onClose}
    />
  );
}

/** A tile's identity assurance, from the server's presence entry for that booked participant. */
function TileIdentity({ meetingId, participantId }: { meetingId: string; participantId: string }) {
  const { state } = useChat({ meetingId });
  const entry = state.participants.find((p) => p.participantId === participantId);
  return entry ? <AssuranceLabel entry={entry} /> : null;
}

/** Announces joins, leaves, chat messages and (to moderators) raised hands for the whole call. */
function Announcer({ meetingId }: { meetingId: string }) {
  const { state } = useChat({ meetingId });
  return <LiveAnnouncer state={state} ownConnectionIds={state.ownConnectionIds} moderator={state.moderator} connected={state.connection === 'connected'} />;
}

/**
 * Captions over the stage, from the chat socket's caption lines; the caption field only for the booked text
 * interpreter, as the server's presence entry says (the server is the check either way).
 */
function ConferenceCaptions({ meetingId }: { meetingId: string }) {
  const { state, sendCaption } = useChat({ meetingId });
  const own = state.participants.find((p) => p.connectionId === state.connectionId);
  const typist = isTextInterpreterRole(own?.role);
  if (!typist && !captionsAvailable(state.participants.map((p) => p.role), state.captions)) return null;
  return <CaptionsOverlay lines={state.captions}>{typist && <CaptionInput onSend={sendCaption} />}</CaptionsOverlay>;
}

/** The people in the meeting as 'Deltagare (n)' counts them, for the call's status line (conference-view.ts). */
function usePresentCount(meetingId: string): number | null {
  const { state } = useChat({ meetingId });
  return state.connection === 'connected' ? state.participants.length : null;
}

registerConferenceSlots({
  usePresentCount,
  captions: ConferenceCaptions,
  tileIdentity: TileIdentity,
  announcer: Announcer,
  chatPanel: ({ meetingId, onClose }) => <ConferenceChatPanel meetingId={meetingId} onClose={onClose} />,
  participantsPanel: ConferenceParticipantsPanel,
  unreadBadge: ChatUnreadBadge,
  notifyChat,
});
