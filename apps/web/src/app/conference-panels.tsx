import { registerConferenceSlots, type ConferencePanelProps } from '../features/conference/slots.ts';
import { useChat } from '../features/chat/hooks/use-chat.ts';
import { notifyChat } from '../features/chat/hooks/chat-connections.ts';
import { ChatUnreadBadge, ConferenceChatPanel } from '../features/chat/components/conference-chat.tsx';
import { ParticipantsPanel } from '../features/participants/components/participants-panel.tsx';

/**
 * Composes the chat and participants features into the meeting screen's slots. The participants panel lists who
 * is connected to the meeting's chat socket (presence) and lets moderators switch a participant's chat.
 */
function ConferenceParticipantsPanel({ meetingId, onClose, media }: ConferencePanelProps) {
  const { state, toggleIgnore } = useChat({ meetingId });
  return (
    <ParticipantsPanel
      participants={state.participants}
      isWebcast={state.isWebcast}
      moderator={state.moderator}
      ownConnectionId={state.connectionId}
      media={media}
      onToggleChat={toggleIgnore}
      onClose={onClose}
    />
  );
}

registerConferenceSlots({
  chatPanel: ({ meetingId, onClose }) => <ConferenceChatPanel meetingId={meetingId} onClose={onClose} />,
  participantsPanel: ConferenceParticipantsPanel,
  unreadBadge: ChatUnreadBadge,
  notifyChat,
});
