import type { AudienceCode, Invitation, Meeting, MeetingInvitations, MeetingLink, Participant } from '@videomote/contract/meetings';
import { MEETING_TIME_ZONE, SIGNUP_LINK_LABEL } from '@videomote/contract/meetings';
import { SIGNUP_CODE_PARAM } from '@videomote/contract/signup';
import { localDate, localParts, localTime } from '@videomote/contract/meeting-rules';
import { DEFAULT_LANGUAGE, LANGUAGES, LANGUAGE_CODES, type LanguageCode } from '@videomote/contract/languages';

/**
 * Invitations (booking spec §3 audience codes) and the calendar file. The spec names the codes but not their
 * texts; we read them as:
 *
 * | code       | who                                              | link                          |
 * |------------|--------------------------------------------------|-------------------------------|
 * | ID         | agency staff in a conversation meeting           | lobby                         |
 * | SD         | job seeker or other e-ID participant in a meeting| lobby (log in with e-ID)      |
 * | LevD       | contractor (PrivateContractor) participant       | lobby                         |
 * | LevR       | contractor's self-registration link to pass on   | /meetings/{id}/signup?code=…  |
 * | IPAF       | internal presenter of an information meeting     | lobby                         |
 * | IPE        | external presenter of an information meeting     | signup (consent), then lobby  |
 *
 * The sign-up link exists only while the meeting's admin has sign-up on; it carries the meeting's sign-up code.
 * Without it, LevR is not offered and IPE gets the lobby link like SD.
 * | IPREG      | the audience of an information meeting           | /publicaccess/{roomId}        |
 * | NotDefined | a general invitation when no code fits           | lobby                         |
 */
export interface MeetingUrls {
  lobby: string;
  /** Null while sign-up is off. */
  signup: string | null;
  publicAccess: string | null;
}

export function meetingUrls(meeting: Pick<Meeting, 'id' | 'type' | 'roomId'>, publicUrl: string, signupCode: string | null = null): MeetingUrls {
  const base = publicUrl.replace(/\/$/, '');
  return {
    lobby: `${base}/meetings/${meeting.id}/lobby`,
    signup: signupCode ? `${base}/meetings/${meeting.id}/signup?${SIGNUP_CODE_PARAM}=${encodeURIComponent(signupCode)}` : null,
    publicAccess: meeting.type === 1 && meeting.roomId ? `${base}/publicaccess/${meeting.roomId}` : null,
  };
}

export function audienceFor(meeting: Pick<Meeting, 'type'>, p: Pick<Participant, 'role'>): AudienceCode {
  if (meeting.type === 1) {
    if (p.role === 'PresenterInternal') return 'IPAF';
    if (p.role === 'PresenterExternal') return 'IPE';
    // The text interpreter of a webcast logs in with e-ID through the lobby like any booked external person.
    if (p.role === 'TextInterpreter') return 'SD';
    return 'NotDefined';
  }
  switch (p.role) {
    case 'EmploymentOfficer':
      return 'ID';
    case 'PrivateContractor':
      return 'LevD';
    case 'JobSeeker':
    case 'Interpreter':
    case 'SignLanguageInterpreter':
    case 'TextInterpreter':
    case 'Authority':
    case 'ExternalParticipant':
      return 'SD';
    default:
      return 'NotDefined';
  }
}

const LOGIN_STAFF = 'Logga in med ditt konto på Arbetsförmedlingen.';
const LOGIN_EID = 'Logga in med e-legitimation (till exempel BankID eller Freja eID).';

/**
 * The one line an external person's invitation adds when the operator offers more languages than Swedish: each
 * language named in itself (a reader who knows little Swedish still finds theirs) and in Swedish. Empty with
 * Swedish alone.
 */
export function languagesLine(offered: readonly LanguageCode[]): string {
  const others = LANGUAGES.filter((l) => l.code !== DEFAULT_LANGUAGE && offered.includes(l.code)).map((l) => `${l.name} (${l.swedishName})`);
  if (!others.length) return '';
  const list = others.length === 1 ? others[0] : `${others.slice(0, -1).join(', ')} och ${others[others.length - 1]}`;
  return `Väntrummet och mötets knappar och texter finns också på ${list}: välj språk högst upp på sidan.`;
}

/** Invitations to people outside the agency: they may read Swedish with difficulty (staff invitations stay as they are). */
const EXTERNAL_AUDIENCES: ReadonlySet<AudienceCode> = new Set(['SD', 'LevD', 'IPE', 'IPREG', 'LevR', 'NotDefined']);

function mailText(
  meeting: Meeting,
  audience: AudienceCode,
  urls: MeetingUrls,
  languages: readonly LanguageCode[],
): { subject: string; body: string; link: string } {
  const start = new Date(meeting.startTime);
  const end = new Date(meeting.endTime);
  // A mail subject is one line: a line break in the title would start the body (or a header) early.
  const title = plainLine(meeting.title);
  const kind = meeting.type === 1 ? 'informationsmöte' : 'videomöte';
  const when = `Datum: ${localDate(start)}\r\nTid: ${localTime(start)}–${localTime(end)} (svensk tid)`;
  const head = (intro: string) => `Hej!\r\n\r\n${intro}\r\n\r\nRubrik: ${title}\r\n${when}\r\n\r\n`;
  const languageLine = EXTERNAL_AUDIENCES.has(audience) ? languagesLine(languages) : '';
  const advice =
    (languageLine ? `\r\n\r\n${languageLine}` : '') +
    '\r\n\r\nAnvänd gärna headset och sitt där du kan prata ostört. Skriv inga personuppgifter eller känsliga uppgifter i mötets chatt.' +
    '\r\n\r\nVänliga hälsningar\r\nArbetsförmedlingen';
  const steps = (login: string, link: string) =>
    `Så här ansluter du:\r\n1. Öppna länken en stund innan mötet börjar: ${link}\r\n2. ${login}\r\n3. Testa kamera och mikrofon och klicka på "Anslut till mötet".`;
  const subject = `Inbjudan till ${kind}: ${title}`;
  switch (audience) {
    case 'ID':
    case 'IPAF':
      return { subject, link: urls.lobby, body: head(`Du är inbjuden till ett ${kind} i Videomöte.`) + steps(LOGIN_STAFF, urls.lobby) + advice };
    case 'SD':
    case 'LevD':
      return { subject, link: urls.lobby, body: head(`Du är inbjuden till ett ${kind} med Arbetsförmedlingen.`) + steps(LOGIN_EID, urls.lobby) + advice };
    case 'IPE':
      if (!urls.signup) {
        return { subject, link: urls.lobby, body: head(`Du är inbjuden att presentera på ett ${kind} med Arbetsförmedlingen.`) + steps(LOGIN_EID, urls.lobby) + advice };
      }
      return {
        subject: `Inbjudan att presentera: ${title}`,
        link: urls.signup,
        body:
          head('Du är inbjuden att presentera på ett informationsmöte med Arbetsförmedlingen.') +
          `Registrera dig först som presentatör och godkänn hanteringen av personuppgifter: ${urls.signup}\r\n` +
          `Vid mötet ansluter du via väntrummet: ${urls.lobby}\r\n${LOGIN_EID}` +
          advice,
      };
    case 'IPREG':
      return {
        subject: `Välkommen till informationsmöte: ${title}`,
        link: urls.publicAccess ?? urls.lobby,
        body:
          head('Välkommen till ett informationsmöte med Arbetsförmedlingen.') +
          `Öppna länken när mötet börjar, ange ditt namn och klicka på "Anslut till mötet": ${urls.publicAccess ?? urls.lobby}\r\n` +
          'Du kan använda samma länk igen om du lämnar mötet.' +
          advice,
      };
    case 'LevR':
      if (!urls.signup) return mailText(meeting, 'NotDefined', urls, languages); // offered only while sign-up is on
      return {
        subject: `Anmälan till ${kind}: ${title}`,
        link: urls.signup,
        body:
          head(`Du är inbjuden till ett ${kind} hos en leverantör till Arbetsförmedlingen.`) +
          `Anmäl dig via länken och godkänn hanteringen av personuppgifter: ${urls.signup}\r\n` +
          `Vid mötet ansluter du via väntrummet: ${urls.lobby}\r\n${LOGIN_EID}` +
          advice,
      };
    default:
      return { subject, link: urls.lobby, body: head(`Du är inbjuden till ett ${kind}.`) + steps(LOGIN_EID, urls.lobby) + advice };
  }
}

/** RFC 6068: everything percent-encoded (spaces as %20, line breaks as %0D%0A). */
export const mailtoUrl = (to: string | null, subject: string, body: string) =>
  `mailto:${to ? encodeURIComponent(to) : ''}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;

function invitation(
  meeting: Meeting,
  audience: AudienceCode,
  urls: MeetingUrls,
  label: string,
  p: Participant | null,
  languages: readonly LanguageCode[],
): Invitation {
  const { subject, body } = mailText(meeting, audience, urls, languages);
  const to = p?.email ?? null;
  return { audience, participantId: p?.id ?? null, label, to, subject, body, mailto: mailtoUrl(to, subject, body) };
}

/**
 * The links accordion and one mail per participant (not the admin themself) plus the general ones. `signupCode`:
 * the meeting's current code when sign-up is on (only ever shown to its admins), else null. `languages`: what
 * the operator offers (`WEB_LANGUAGES`), named in the external invitations.
 */
export function invitationsFor(
  meeting: Meeting,
  publicUrl: string,
  signupCode: string | null,
  languages: readonly LanguageCode[] = LANGUAGE_CODES,
): MeetingInvitations {
  const urls = meetingUrls(meeting, publicUrl, signupCode);
  const links: MeetingLink[] = [{ label: meeting.type === 1 ? 'Länk för presentatörer' : 'Länk till mötet', url: urls.lobby }];
  if (urls.publicAccess) links.push({ label: 'Länk för deltagare (publik)', url: urls.publicAccess });
  const contractorMeeting = meeting.type === 0 && meeting.participants.some((p) => p.role === 'PrivateContractor' && p.isAdmin);
  if (urls.signup) links.push({ label: SIGNUP_LINK_LABEL, url: urls.signup });

  const invitations: Invitation[] = meeting.participants
    .filter((p) => !p.currentUser)
    .map((p) => invitation(meeting, audienceFor(meeting, p), urls, `Inbjudan till ${p.displayName}`, p, languages));
  if (meeting.type === 1) invitations.push(invitation(meeting, 'IPREG', urls, 'Inbjudan till åhörare', null, languages));
  if (contractorMeeting && urls.signup) invitations.push(invitation(meeting, 'LevR', urls, 'Inbjudan med länk för självregistrering', null, languages));
  invitations.push(invitation(meeting, 'NotDefined', urls, 'Allmän inbjudan', null, languages));
  return { links, invitations };
}

// ---------- iCalendar (RFC 5545) ----------

const STOCKHOLM_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${MEETING_TIME_ZONE}`,
  `X-LIC-LOCATION:${MEETING_TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const pad = (n: number) => String(n).padStart(2, '0');
const localStamp = (d: Date) => {
  const p = localParts(d);
  return `${p.year}${pad(p.month)}${pad(p.day)}T${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
};
const utcStamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * Control characters a calendar or mail program could read as structure are removed from user text; line breaks
 * (any of CRLF, CR, LF, U+2028/2029) become LF. A lone CR once passed the escaping below untouched, and some
 * calendar programs end a property line at it, so a title could add properties of its own.
 */
export const plainText = (s: string) =>
  s.replace(/\r\n|[\r\u2028\u2029]/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');

/** One line of plain text (a title): line breaks become spaces. */
export const plainLine = (s: string) => plainText(s).replace(/\n/g, ' ');

/** TEXT values: controls removed, backslash, semicolon, comma and line breaks escaped (RFC 5545 §3.3.11). */
export const icsText = (s: string) => plainText(s).replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');

/** Lines longer than 75 octets are folded with CRLF + space, never inside a UTF-8 character (§3.1). */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    const limit = out.length ? 74 : 75; // continuation lines start with a space
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** One VEVENT per meeting: stable UID, SEQUENCE = version, so calendars update the entry they already have. */
export function calendarFor(meeting: Meeting, publicUrl: string, now: Date): string {
  const urls = meetingUrls(meeting, publicUrl);
  const start = new Date(meeting.startTime);
  const end = new Date(meeting.endTime);
  const kind = meeting.type === 1 ? 'Informationsmöte' : 'Videomöte';
  const description = `${kind} i Videomöte.\nAnslut via väntrummet: ${urls.lobby}\nAnvänd gärna headset och sitt där du kan prata ostört.`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Videomote//Videomote 1.0//SV',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...STOCKHOLM_VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${meeting.id}@videomote`,
    `DTSTAMP:${utcStamp(now)}`,
    `SEQUENCE:${meeting.version}`,
    `DTSTART;TZID=${MEETING_TIME_ZONE}:${localStamp(start)}`,
    `DTEND;TZID=${MEETING_TIME_ZONE}:${localStamp(end)}`,
    `SUMMARY:${icsText(plainLine(meeting.title))}`,
    `DESCRIPTION:${icsText(description)}`,
    `LOCATION:${icsText(urls.lobby)}`,
    `URL:${urls.lobby}`,
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
