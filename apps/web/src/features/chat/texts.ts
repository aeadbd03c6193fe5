/** The chat's Swedish texts, exactly as conference spec §2 has them (and a few of ours where it is silent). */
export const CHAT_TEXTS = {
  title: 'Chatt',
  close: 'Stäng',
  on: 'På',
  off: 'Av',
  pauseToggle: 'Chatt för deltagare',
  toLatest: 'Till senaste meddelandet',
  inputLabel: 'Skriv ett meddelande',
  send: 'Skicka',
  emojiButton: 'Infoga emoji',
  emojiList: 'Emojier',
  pausedForOthers: 'Chatten är pausad av moderatorn',
  pausedForModerator: 'Chatten är pausad för deltagare',
  you: 'Du',
  anonymous: 'Anonym',
  remove: 'Ta bort meddelandet',
  messages: 'Chattmeddelanden',
  error: 'Fel',
  info: 'Information',
  connecting: 'Ansluter till chatten...',
  connectionFailed: 'Anslutning misslyckades',
} as const;

/** The 12 emojis of spec §2, each with its Swedish name as the accessible name. */
export const EMOJIS: readonly { name: string; char: string }[] = [
  { name: 'glad', char: '😀' },
  { name: 'förvånad', char: '😮' },
  { name: 'sur', char: '😠' },
  { name: 'tummen upp', char: '👍' },
  { name: 'tummen ner', char: '👎' },
  { name: 'vinkar', char: '👋' },
  { name: 'handklapp', char: '👏' },
  { name: 'tyst', char: '🤫' },
  { name: 'hjärta', char: '❤️' },
  { name: 'stjärna', char: '⭐' },
  { name: 'sol', char: '☀️' },
  { name: 'regnbåge', char: '🌈' },
];
