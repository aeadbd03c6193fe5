export interface ErrorText {
  kind: 'unauthorized' | 'forbidden' | 'notFound' | 'gone' | 'gatewayTimeout' | 'internal';
  heading: string;
  body: string;
}

/** Booking spec §8: 401, 403, 404, 410 and 504 each have their page; 500 and all others the internal error. */
export function errorTextFor(status: number): ErrorText {
  switch (status) {
    case 401:
      return { kind: 'unauthorized', heading: 'Du är inte inloggad', body: 'Du behöver logga in för att se sidan. Din inloggning kan också ha gått ut.' };
    case 403:
      return { kind: 'forbidden', heading: 'Du har inte behörighet', body: 'Du har inte behörighet att se sidan eller göra det du försökte göra.' };
    case 404:
      return { kind: 'notFound', heading: 'Sidan hittades inte', body: 'Sidan eller mötet du söker finns inte. Kontrollera adressen eller länken och försök igen.' };
    case 410:
      return { kind: 'gone', heading: 'Sidan finns inte längre', body: 'Det du söker har tagits bort och finns inte längre.' };
    case 504:
      return { kind: 'gatewayTimeout', heading: 'Tjänsten svarar inte', body: 'Det tog för lång tid att få svar från tjänsten. Vänta en stund och försök igen.' };
    default:
      return { kind: 'internal', heading: 'Något gick fel', body: 'Ett tekniskt fel uppstod hos oss. Försök igen om en stund.' };
  }
}
