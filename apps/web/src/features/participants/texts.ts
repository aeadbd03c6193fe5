/** The participants panel's Swedish texts (conference spec §2). */
export const PARTICIPANTS_TEXTS = {
  title: (count: number) => `Deltagare (${count.toLocaleString('sv-SE')})`,
  presenters: 'Presentatörer',
  participants: 'Deltagare',
  close: 'Stäng',
  chatOn: 'Chatt på',
  chatOff: 'Chatt av',
  chatFor: (name: string) => ` för ${name}`,
  micOn: 'Mikrofon på',
  micOff: 'Mikrofon av',
  cameraOn: 'Kamera på',
  cameraOff: 'Kamera av',
  you: '(du)',
  moderator: 'moderator',
  anonymous: 'Anonym',
} as const;
