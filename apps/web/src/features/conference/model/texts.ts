/** The conference's Swedish texts, exactly as conference spec §2, §8 have them. */
export const TEXTS = {
  pageTitle: 'Videomöte - Pågående möte',
  endedTitle: 'Videomöte - Mötet avslutat',
  connecting: 'Ansluter...',
  connectionFailed: 'Anslutning misslyckades',
  alone: 'Ingen annan är ansluten till mötet',
  participating: (n: number) => `${n.toLocaleString('sv-SE')} personer deltar i mötet`,
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
  maximise: 'Maximera',
  minimise: 'Minimera',
  sharesScreen: ' delar skärm',
  helpTitle: 'Fungerar det inte?',
  helpQuestion: 'Har du problem med mötet?',
  helpAdvice: 'Ladda om sidan. Fungerar det ändå inte, kontrollera ljud och bild under inställningar.',
  reload: 'Ladda om sidan',
  close: 'Stäng',
  noStreams: 'Ingen sänder video just nu',
  reconnecting: 'Återansluter...',
  micMuted: 'Mikrofonen är avstängd',
  micLive: 'Mikrofonen är på',
  readMore: 'Här kan du läsa mer om hur du gör detta.',
} as const;

/** Error texts by key (spec §8). Keys in this list are "known" (yellow); anything else shows blue. */
export const ERROR_TEXTS: Record<string, string> = {
  OT_HARDWARE_UNAVAILABLE:
    'Lyckades inte komma åt din kamera eller mikrofon. Kontrollera att dina enheter inte används av en annan applikation och försök igen.',
  OT_USER_MEDIA_ACCESS_DENIED: 'Du behöver godkänna åtkomst till mikrofon och kamera för att kunna delta i mötet med ljud och bild.',
  networkDisconnected: 'Det är problem med anslutningen, ladda gärna om sidan.',
  PUBLISHER_RESTARTING: 'Din videoström bröts, startar om automatiskt. Du kan behöva aktivera din kamera och mikrofon igen.',
  PUBLISHER_LOSS_RATIO_EXCEEDED: 'Andra deltagare kan uppleva att din samtalskvalité är dålig. Kontrollera gärna uppkopplingen.',
  connectionFailed: 'Anslutning misslyckades',
  // Ours (the spec's list of known keys is not shown): failures the user must see on any host.
  SCREEN_SHARE_FAILED: 'Det gick inte att dela skärmen.',
  FORCE_MUTE_FAILED: 'Det gick inte att stänga av mikrofonen.',
  BLUR_FAILED: 'Det gick inte att göra bakgrunden suddig. Du visas med normal bakgrund.',
  E2EE_UNSUPPORTED:
    'Din webbläsare kan inte kryptera bild och ljud hela vägen till de andra deltagarna. Därför kan du inte skicka eller ta emot bild och ljud i mötet, men chatten fungerar. Använd en aktuell version av Chrome, Edge, Firefox eller Safari.',
};

export const TROUBLESHOOTING_URL = '/usersupport/troubleshooting#user-media';

/** When the server refuses the media token for want of the lobby's consent (booking spec §4, §5 lobby). */
export const CONSENT_TEXTS = {
  heading: 'Du behöver gå via mötets förberedelser',
  /** Shown if the server's answer carries no message of its own. */
  fallback: 'Du behöver intyga att du förstår hanteringen av personuppgifter innan du går in i mötet.',
  toLobby: 'Till mötets förberedelser',
} as const;
