import type { SystemMessage } from '@videomote/contract/messages';

export const TYPE_TEXT: Record<SystemMessage['type'], { label: string; icon: string; className: string }> = {
  0: { label: 'Information', icon: 'ℹ', className: 'msg-type--info' },
  1: { label: 'Varning', icon: '⚠', className: 'msg-type--warn' },
  2: { label: 'Systemfel', icon: '✖', className: 'msg-type--error' },
};

/** The type icon of the list: seen as an icon, read as its word. */
export function MessageTypeIcon({ type }: { type: SystemMessage['type'] }) {
  const t = TYPE_TEXT[type] ?? TYPE_TEXT[0];
  return (
    <span className={`msg-type ${t.className}`}>
      <span aria-hidden="true">{t.icon}</span>
      <span className="visually-hidden">{t.label}</span>
    </span>
  );
}

const AUDIENCES = [
  { key: 'showInternal', short: 'I', long: 'Interna' },
  { key: 'showExternal', short: 'E', long: 'Externa' },
  { key: 'showKauser', short: 'L', long: 'Leverantörer' },
] as const;

/** 'Shown for' badges I, E, L (booking spec §2). */
export function AudienceBadges({ message }: { message: SystemMessage }) {
  const shown = AUDIENCES.filter((a) => message[a.key]);
  if (!shown.length) return <span className="muted">Ingen</span>;
  return (
    <span className="badges">
      {shown.map((a) => (
        <span key={a.key} className="badge" title={a.long}>
          <span aria-hidden="true">{a.short}</span>
          <span className="visually-hidden">{a.long}</span>
        </span>
      ))}
    </span>
  );
}
