import type { ReactNode } from 'react';
import { CONTROL_TEXTS } from '../model/texts.ts';
import { CameraIcon, ChatIcon, HangUpIcon, MicIcon, PeopleIcon } from './icons.tsx';
import { ScreenIcon } from './screen-icon.tsx';

interface Props {
  canPublish: boolean;
  ownAlive: boolean;
  hasAudio: boolean;
  hasVideo: boolean;
  onToggleAudio(): void;
  onToggleVideo(): void;
  chatOpen: boolean;
  participantsOpen: boolean;
  onToggleChat(): void;
  onToggleParticipants(): void;
  /** The chat feature's unread badge (registered through slots.ts). */
  unreadBadge: ReactNode;
  /** 'Lägg på' for those who publish, 'Lämna samtalet' for webcast viewers. */
  leaveLabel: string;
  onLeave(): void;
  /** Screen sharing: shown to publishers where the browser can share a screen (spec §2, §5). */
  canShare?: boolean;
  sharing?: boolean;
  onToggleShare?(): void;
}

/**
 * Call buttons (spec §2 Control bar). Microphone and camera show only with the publish capability and while the
 * own stream is alive. Labels are visually hidden on mobile and tablet (icon-only), never removed.
 */
export function ControlBar(p: Props) {
  const showMedia = p.canPublish && p.ownAlive;
  return (
    <nav className="control-bar" aria-label={CONTROL_TEXTS.bar}>
      {showMedia && (
        <button type="button" className="control" aria-pressed={!p.hasAudio} onClick={p.onToggleAudio}>
          <MicIcon off={!p.hasAudio} />
          <span className="control__label">{p.hasAudio ? CONTROL_TEXTS.micOff : CONTROL_TEXTS.micOn}</span>
        </button>
      )}
      {showMedia && (
        <button type="button" className="control" aria-pressed={!p.hasVideo} onClick={p.onToggleVideo}>
          <CameraIcon off={!p.hasVideo} />
          <span className="control__label">{p.hasVideo ? CONTROL_TEXTS.cameraOff : CONTROL_TEXTS.cameraOn}</span>
        </button>
      )}
      <button type="button" className="control" aria-pressed={p.chatOpen} onClick={p.onToggleChat}>
        <ChatIcon />
        <span className="control__label">{CONTROL_TEXTS.chat}</span>
        {p.unreadBadge}
      </button>
      <button type="button" className="control" aria-pressed={p.participantsOpen} onClick={p.onToggleParticipants}>
        <PeopleIcon />
        <span className="control__label">{CONTROL_TEXTS.participants}</span>
      </button>
      {p.canPublish && p.canShare && (
        <button type="button" className="control" aria-pressed={Boolean(p.sharing)} onClick={p.onToggleShare}>
          <ScreenIcon />
          <span className="control__label">{p.sharing ? CONTROL_TEXTS.stopShare : CONTROL_TEXTS.shareScreen}</span>
        </button>
      )}
      <button type="button" className="control control--leave" onClick={p.onLeave}>
        <HangUpIcon />
        <span className="control__label">{p.leaveLabel}</span>
      </button>
    </nav>
  );
}
