/** Swedish texts of issue 10's stage rules (not in the spec: chosen here). */
export const STAGE_TEXTS = {
  pin: 'Fäst',
  unpin: 'Lossa',
  pinned: 'Fäst',
  interpreter: 'Teckentolk',
  textInterpreter: 'Skrivtolk',
  pinLimit: 'Du kan fästa högst två rutor. Lossa en av dem först.',
} as const;
