import type { ClusterBus } from './cluster-bus.ts';

/**
 * What the meetings module tells the live modules (chat, media) about a booking: in this process, and through the
 * cluster bus in every other, so each closes its own sockets of people who no longer belong.
 */
export type MeetingEvent =
  /** The participant list (or who a participant is) may have changed: live connections are checked again. */
  | { type: 'membershipChanged'; meetingId: string }
  /** The meeting is gone (deleted by its admin, or purged by retention): every live connection closes. */
  | { type: 'meetingDeleted'; meetingId: string }
  /** The meeting's media key was replaced (a holder was removed): each process hands it to its live connections. */
  | { type: 'mediaKeyRotated'; meetingId: string };

export class MeetingEvents {
  private readonly listeners = new Set<(event: MeetingEvent) => void | Promise<void>>();

  constructor(private readonly bus?: ClusterBus) {
    bus?.on('meeting-events', (message) => void this.notify(JSON.parse(message) as MeetingEvent));
  }

  on(listener: (event: MeetingEvent) => void | Promise<void>): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Resolves when every listener here has handled the event and the other processes have been told; a failing
   * listener does not stop the others, and Redis being away does not fail the booking that caused the event.
   */
  async emit(event: MeetingEvent): Promise<void> {
    await Promise.allSettled([this.notify(event), this.bus?.publish('meeting-events', JSON.stringify(event))]);
  }

  private async notify(event: MeetingEvent): Promise<void> {
    await Promise.allSettled([...this.listeners].map(async (l) => l(event)));
  }
}
