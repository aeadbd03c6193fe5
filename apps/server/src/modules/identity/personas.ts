/** The embedded test IdP's personas (ARCHITECTURE.md); the same list drives its login page and the tests. */
export interface Persona {
  key: 'anna' | 'erik' | 'karin' | 'fredrik' | 'jonna';
  button: string;
  firstName: string;
  lastName: string;
  afId: string | null;
  pin: string | null;
  roles: string;
}

export const PERSONAS: readonly Persona[] = [
  { key: 'anna', button: 'Anna Admin', firstName: 'Anna', lastName: 'Admin', afId: 'annadm', pin: null, roles: 'VIDMedarbetare,VIDAdmin' },
  { key: 'erik', button: 'Erik Handläggare', firstName: 'Erik', lastName: 'Handläggare', afId: 'erihan', pin: null, roles: 'VIDMedarbetare' },
  { key: 'karin', button: 'Karin Kompletterande', firstName: 'Karin', lastName: 'Kompletterande', afId: null, pin: '198507099805', roles: 'KompletterandeAktör' },
  { key: 'fredrik', button: 'Fredrik Fristående', firstName: 'Fredrik', lastName: 'Fristående', afId: null, pin: '197001011233', roles: 'FriståendeAktör' },
  { key: 'jonna', button: 'Jonna Sökande', firstName: 'Jonna', lastName: 'Sökande', afId: null, pin: '199001012385', roles: 'Participant' },
];

export const personaByKey = (key: Persona['key']): Persona => PERSONAS.find((p) => p.key === key)!;
