import crypto from 'node:crypto';
import { ChatSignalTypes, type CaptionLine, type ChatMessageEvent, type ChatSignal, type NotificationSeverity } from '@videomote/contract/chat';
import { isTextInterpreterRole } from '@videomote/contract/meeting-rules';
import type { ChatMember } from './chat.service.ts';
import { CHAT_TEXTS, type ChatCommand } from './chat-frames.ts';
import { personId } from './chat-presence.ts';
import type { ChatStore } from './chat-store.ts';

/** The socket a frame came from: who sent it, decided at the upgrade (a frame never says who it is from). */
export type CommandSender = Pick<ChatMember, 'meetingId' | 'key' | 'displayName' | 'moderator' | 'role'> & {
  /** The socket's own id (its presence entry in the store), and the person's id browsers know. */
  id: string;
  publicId: string;
};

/** What the rules may do: the meeting's state in the store, and saying something to one socket or the whole meeting. */
export interface CommandContext<C extends CommandSender> {
  store: ChatStore;
  now(): Date;
  publish(meetingId: string, signal: ChatSignal): Promise<void>;
  /** A notification for one socket only (a refusal, a limit): never stored, never fanned out. */
  notify(conn: C, severity: NotificationSeverity, message: string): void;
  send(conn: C, signal: ChatSignal): void;
}

/**
 * What one chat frame does, with the moderator rules (conference spec §3, §6) checked here, never in the browser:
 * post, remove, pause, switch a person's chat off, raise and lower hands, and the text interpreter's captions.
 */
export async function handleCommand<C extends CommandSender>(ctx: CommandContext<C>, conn: C, command: ChatCommand): Promise<void> {
  const { meetingId } = conn;
  switch (command.kind) {
    case 'ping':
      return ctx.send(conn, { type: ChatSignalTypes.pong, data: null });
    case 'invalid':
      return ctx.notify(conn, 'ERROR', command.message);
    case 'chat': {
      const state = await ctx.store.postingState(meetingId, conn.key);
      // SECURITY: both checks are the server's; a modified client that still shows the input gets nowhere.
      if (state.ignored) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.ignored);
      if (!state.chatOpen && !conn.moderator) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.paused);
      const event: ChatMessageEvent = { id: crypto.randomUUID(), type: ChatSignalTypes.chatMessage, message: command.text, ...sentBy(ctx, conn) };
      return ctx.store.post(meetingId, event);
    }
    case 'remove':
      if (!conn.moderator) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.forbidden);
      await ctx.store.remove(meetingId, command.messageId);
      return ctx.publish(meetingId, { type: ChatSignalTypes.removeChat, data: { id: command.messageId } });
    case 'setOpen':
      if (!conn.moderator) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.forbidden);
      await ctx.store.setOpen(meetingId, command.open);
      return ctx.publish(meetingId, { type: ChatSignalTypes.status, data: { chatOpen: command.open } });
    case 'toggleIgnore': {
      if (!conn.moderator) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.forbidden);
      const { presence } = await ctx.store.snapshot(meetingId);
      const target = presence.find((p) => personId(p) === command.connectionId);
      if (!target) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.notConnected);
      if (target.moderator) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.moderatorCannotBeMuted);
      // The switch holds the person's key, so every socket of theirs (two tabs, a reconnect) is switched together.
      await ctx.store.setIgnored(meetingId, target.key, command.ignore);
      return ctx.publish(meetingId, { type: ChatSignalTypes.toggleIgnoreChat, data: { connectionId: command.connectionId, ignore: command.ignore } });
    }
    case 'raiseHand': {
      // One hand per person: a second tab raising it again changes nothing (the queue place stays).
      const { presence } = await ctx.store.snapshot(meetingId);
      if (presence.some((p) => personId(p) === conn.publicId && p.hand != null)) return;
      const raised = await ctx.store.raiseHand(meetingId, conn.id);
      if (!raised?.changed) return;
      return ctx.publish(meetingId, { type: ChatSignalTypes.hand, data: { connectionId: conn.publicId, hand: raised.hand } });
    }
    case 'lowerHand': {
      const target = command.connectionId ?? conn.publicId;
      // SECURITY: lowering someone else's hand is the moderator's, checked here whatever the client shows.
      if (target !== conn.publicId && !conn.moderator) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.handForbidden);
      const { presence } = await ctx.store.snapshot(meetingId);
      let lowered = false;
      for (const p of presence.filter((q) => personId(q) === target)) lowered = (await ctx.store.lowerHand(meetingId, p.connectionId)) || lowered;
      if (!lowered) return;
      return ctx.publish(meetingId, { type: ChatSignalTypes.hand, data: { connectionId: target, hand: null } });
    }
    case 'caption': {
      // SECURITY: the role is the booking's, fixed at the upgrade; a frame cannot claim it. Anyone else (a
      // participant, a moderator, a webcast visitor) is refused and told why. Neither a paused chat nor 'Chatt av'
      // stops captions: they are how deaf participants follow the call, not chat.
      if (!isTextInterpreterRole(conn.role)) return ctx.notify(conn, 'ERROR', CHAT_TEXTS.captionForbidden);
      const line: CaptionLine = {
        // The interpreter's line ids live under their own person id, so two interpreters never overwrite each other.
        id: `${conn.publicId}_${command.lineId}`,
        text: command.text,
        final: command.final,
        ...sentBy(ctx, conn),
      };
      await ctx.store.putCaption(meetingId, line);
      return ctx.publish(meetingId, { type: ChatSignalTypes.caption, data: line });
    }
  }
}

/** Who sent a message or caption line, and when: the server's word, never the frame's. */
function sentBy(ctx: { now(): Date }, conn: CommandSender): { fromId: string; fromName: string; timestamp: string } {
  return { fromId: conn.publicId, fromName: conn.displayName, timestamp: ctx.now().toISOString() };
}
