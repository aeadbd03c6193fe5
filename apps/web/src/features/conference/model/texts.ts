/**
 * Every Swedish text of the conference, grouped by the part of the screen that shows it: the spec's own wording
 * (conference spec §2, §4, §8) where it gives one, ours where it does not (marked). A new part of the screen (captions,
 * languages) adds its own group here.
 */

/** The page itself: document titles and headings. */
export const PAGE_TEXTS = {
  pageTitle: 'Videomöte - Pågående möte',
  endedTitle: 'Videomöte - Mötet avslutat',
  /** Visually hidden: the landmark screen readers jump to. */
  heading: 'Pågående möte',
  /** After a webcast has ended (its content is not specified beyond the title). */
  endedHeading: 'Mötet är avslutat',
} as const;

/** The call status line, and the centre of the video area when no stream is shown (spec §2 "Call status screen"). */
export const STATUS_TEXTS = {
  connecting: 'Ansluter...',
  connectionFailed: 'Anslutning misslyckades',
  alone: 'Ingen annan är ansluten till mötet',
  participating: (n: number) => `${n.toLocaleString('sv-SE')} personer deltar i mötet`,
  noStreams: 'Ingen sänder video just nu',
  reconnecting: 'Återansluter...',
} as const;

/** The toolbar above the video area. */
export const TOOLBAR_TEXTS = {
  settings: 'Inställningar',
  /** Leaves the focus layout. */
  minimise: 'Minimera',
} as const;

/** The control bar below the video area. */
export const CONTROL_TEXTS = {
  micOff: 'Stäng av din mikrofon',
  micOn: 'Slå på din mikrofon',
  cameraOff: 'Stäng av din kamera',
  cameraOn: 'Slå på din kamera',
  shareScreen: 'Dela skärm',
  stopShare: 'Avsluta skärmdelning',
  hangUp: 'Lägg på',
  leave: 'Lämna samtalet',
  chat: 'Chatt',
  participants: 'Deltagare',
} as const;

/** A video tile: its name, microphone mark, maximise button and the tools on it. */
export const TILE_TEXTS = {
  maximise: 'Maximera',
  minimise: 'Minimera',
  sharesScreen: ' delar skärm',
  micMuted: 'Mikrofonen är avstängd',
  micLive: 'Mikrofonen är på',
  blurOn: 'Suddig bakgrund',
  blurOff: 'Normal bakgrund',
  // Not worded by the spec (its admin-only tile section is "not shown"): ours.
  forceMute: (name: string) => `Stäng av mikrofonen för ${name}`,
  signal: (name: string) => `Signalkvalitet för ${name}`,
  signalCaption: 'Inkommande ström',
  frameRate: 'Bildfrekvens',
  bitrate: 'Bithastighet',
  packetsLost: 'Förlorade paket',
  video: 'Video',
  audio: 'Ljud',
  levels: { danger: 'dålig', warning: 'varierande', fine: 'bra' } as Record<string, string>,
} as const;

/** The stage's pins and kept tiles (not in the spec: chosen here). */
export const STAGE_TEXTS = {
  pin: 'Fäst',
  unpin: 'Lossa',
  pinned: 'Fäst',
  interpreter: 'Teckentolk',
  pinLimit: 'Du kan fästa högst två rutor. Lossa en av dem först.',
} as const;

/** Screen sharing: the toolbar's sharer line and buttons, the takeover dialog, its failures (spec §2, §4). */
export const SHARE_TEXTS = {
  youShare: 'Du delar skärm',
  someoneElse: 'Någon annan',
  shares: (name: string) => `${name}${TILE_TEXTS.sharesScreen}`,
  takeoverQuestion: (name: string) => `${name} delar redan sin skärm. Vill du ta över skärmdelningen?`,
  takeoverConfirm: 'Ja, dela min skärm',
  takeoverCancel: 'Avbryt',
  maximiseShare: 'Maximera delning',
  minimiseShare: 'Minimera delning',
  failed: 'Det gick inte att dela skärmen.',
  /** Without the takeover right (self-registered people): wait for the share to end. */
  busy: (name: string) => `${name} delar redan sin skärm. Du kan dela din skärm när den delningen är slut.`,
} as const;

/** The 'Fungerar det inte?' popover (spec §2 Help popover). */
export const HELP_TEXTS = {
  helpTitle: 'Fungerar det inte?',
  helpQuestion: 'Har du problem med mötet?',
  helpAdvice: 'Ladda om sidan. Fungerar det ändå inte, kontrollera ljud och bild under inställningar.',
  reload: 'Ladda om sidan',
} as const;

/** The settings dialog (spec §2 Settings dialog). */
export const SETTINGS_TEXTS = {
  settingsTitle: 'Inställningar för ljud och bild',
  videoSource: 'Välj videokälla',
  audioSource: 'Välj ljudkälla',
  close: 'Stäng',
  cameraError: 'Lyckades inte komma åt din kamera.',
  micError: 'Lyckades inte komma åt din mikrofon.',
  deviceAdvice: 'Kontrollera att dina enheter inte används av en annan applikation och försök igen.',
  video: 'Video',
  audio: 'Ljud',
} as const;

/** The banners above the control bar: errors (spec §8) and the forced mute (spec §2). */
export const BANNER_TEXTS = {
  readMore: 'Här kan du läsa mer om hur du gör detta.',
  close: 'Stäng',
  forcedMute: 'Någon i mötet har stängt av din mikrofon',
  /** Ours; shown with its own text, so it stays an "unknown" (blue) error. */
  subscribeFailed: 'Det gick inte att ta emot en videoström.',
} as const;

/** Error texts by key (spec §8). Keys in this list are "known" (yellow); anything else shows blue. */
export const ERROR_TEXTS: Record<string, string> = {
  OT_HARDWARE_UNAVAILABLE:
    'Lyckades inte komma åt din kamera eller mikrofon. Kontrollera att dina enheter inte används av en annan applikation och försök igen.',
  OT_USER_MEDIA_ACCESS_DENIED: 'Du behöver godkänna åtkomst till mikrofon och kamera för att kunna delta i mötet med ljud och bild.',
  networkDisconnected: 'Det är problem med anslutningen, ladda gärna om sidan.',
  PUBLISHER_RESTARTING: 'Din videoström bröts, startar om automatiskt. Du kan behöva aktivera din kamera och mikrofon igen.',
  PUBLISHER_LOSS_RATIO_EXCEEDED: 'Andra deltagare kan uppleva att din samtalskvalité är dålig. Kontrollera gärna uppkopplingen.',
  connectionFailed: STATUS_TEXTS.connectionFailed,
  // Ours (the spec's list of known keys is not shown): failures the user must see on any host.
  SCREEN_SHARE_FAILED: SHARE_TEXTS.failed,
  FORCE_MUTE_FAILED: 'Det gick inte att stänga av mikrofonen.',
  BLUR_FAILED: 'Det gick inte att göra bakgrunden suddig. Du visas med normal bakgrund.',
  E2EE_UNSUPPORTED:
    'Din webbläsare kan inte kryptera bild och ljud hela vägen till de andra deltagarna. Därför kan du inte skicka eller ta emot bild och ljud i mötet, men chatten fungerar. Använd en aktuell version av Chrome, Edge, Firefox eller Safari.',
};

export const TROUBLESHOOTING_URL = '/usersupport/troubleshooting#user-media';

/** In place of the video area when the server refuses the media token for want of the lobby's consent (booking spec §4, §5 lobby). */
export const CONSENT_TEXTS = {
  heading: 'Du behöver gå via mötets förberedelser',
  /** Shown if the server's answer carries no message of its own. */
  fallback: 'Du behöver intyga att du förstår hanteringen av personuppgifter innan du går in i mötet.',
  toLobby: 'Till mötets förberedelser',
} as const;
