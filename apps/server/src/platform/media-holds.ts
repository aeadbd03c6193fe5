/**
 * SECURITY: what one person, one session and one client address may hold of the media servers at once, across
 * meetings and app nodes: `/media` sockets (each with its own Janus upstream), Janus handles (bare ones too), and
 * PeerConnections (one Janus RTP port each). The per-socket and per-meeting caps of the relay policy alone let
 * anyone who may book meetings, or who opens many visitor sessions from one address, multiply them until Janus's
 * ports run out. Configurable (config.ts: MEDIA_MAX_*), with defaults sized for real use: a person in a call with a
 * few tabs and the lobby's check; an office behind one address watching a webcast.
 */
export type HoldScope = 'person' | 'session' | 'address';
export type HoldCounts = Record<HoldScope, number>;
export type HoldResource = 'sockets' | 'handles' | 'peerConnections';
export type MediaHoldCaps = Record<HoldResource, HoldCounts>;

export const DEFAULT_MEDIA_HOLD_CAPS: MediaHoldCaps = {
  sockets: { person: 8, session: 6, address: 300 },
  handles: { person: 120, session: 100, address: 3000 },
  peerConnections: { person: 40, session: 32, address: 1500 },
};

/** Who holds a `/media` socket: the person across meetings, their session, and the address it came from. */
export type Holder = Record<HoldScope, string>;

/**
 * The person behind a session, the same in every meeting: an agency id, the keyed personnummer hash, or for a
 * webcast visitor the visitor session's subject (each visitor session is a person of its own; the address cap
 * bounds how many of those one client makes).
 */
export function holderOf(user: { afId: string | null; pinHash: string | null; subject: string }, sessionHash: string, address: string): Holder {
  const person = user.afId ? `af:${user.afId}` : user.pinHash ? `pin:${user.pinHash}` : `sub:${user.subject}`;
  return { person, session: `s:${sessionHash}`, address: `ip:${address}` };
}

const SCOPES: HoldScope[] = ['session', 'person', 'address'];

/** The first scope whose holdings have reached its cap (one more would pass it); null while all have room. */
export function fullScope(held: HoldCounts, caps: HoldCounts): HoldScope | null {
  for (const scope of SCOPES) if (held[scope] >= caps[scope]) return scope;
  return null;
}

/** The relay's reason (logged, and sent to the browser as `refused`). */
export function holdRefusal(resource: HoldResource, scope: HoldScope): string {
  const what = resource === 'peerConnections' ? 'peer connections' : resource;
  return `too many ${what} for one ${scope === 'address' ? 'client address' : scope}`;
}
