/** Texts of issue 6's parts of the meeting screen (spec §2); the spec's own wording where it gives one. */
export const MORE_TEXTS = {
  settings: 'Inställningar',
  settingsTitle: 'Inställningar för ljud och bild',
  videoSource: 'Välj videokälla',
  audioSource: 'Välj ljudkälla',
  close: 'Stäng',
  cameraError: 'Lyckades inte komma åt din kamera.',
  micError: 'Lyckades inte komma åt din mikrofon.',
  deviceAdvice: 'Kontrollera att dina enheter inte används av en annan applikation och försök igen.',
  blurOn: 'Suddig bakgrund',
  blurOff: 'Normal bakgrund',
  forcedMute: 'Någon i mötet har stängt av din mikrofon',
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

/** Captions from the booked text interpreter (Skrivtolk); not in the spec: ours, short and plain. */
export const CAPTION_TEXTS = {
  toggle: 'Textning',
  larger: 'Större text',
  settings: 'Inställningar för textning',
  region: 'Textning från skrivtolken',
  inputLabel: 'Skriv textning',
  inputHint: 'Det du skriver visas som textning för alla medan du skriver. Tryck Enter för att börja på en ny rad.',
  /** What a screen reader hears for a finished line. */
  announce: (name: string, text: string) => `${name}: ${text}`,
} as const;
