/** The lobby's Swedish texts (booking spec §2 lobby, §5 lobby). */
export const LOBBY_TEXTS = {
  back: 'Tillbaka till startsidan',
  headingMeeting: 'Till Mötet',
  headingWebcast: 'Till Informationsmötet',
  deviceTest: 'Testa ljud och bild',
  personalDataHeading: 'Hantering av personuppgifter',
  personalData:
    'I ett videomöte behandlar Arbetsförmedlingen uppgifter om dig, till exempel ditt namn, ditt personnummer och den bild och det ljud du delar under mötet. Mötet spelas inte in. Dela inte fler personuppgifter i chatten än vad som behövs.',
  webcastHeading: 'Om informationsmötet',
  webcast:
    'Det här är ett informationsmöte. Presentatörerna syns och hörs av alla som deltar. Övriga deltagare lyssnar, tittar och kan skriva i chatten, men använder inte ljud, bild eller skärmdelning. Mötet spelas inte in. Dela inga personuppgifter eller känsliga uppgifter i chatten.',
  personalDataLink: 'Så här hanterar vi personuppgifter i Videomöte',
  consent: 'Jag intygar att jag förstår hanteringen av personuppgifter',
  consentRequired: 'Du måste intyga att du förstår hanteringen av personuppgifter',
  join: 'Anslut till mötet',
  noAccess: 'Du kan inte gå in i det här mötet. Kontrollera att du är inloggad med rätt konto och att länken stämmer.',
} as const;
