import { sv } from '../../../i18n/catalogues/sv.ts';
import { screenText as t, screenTexts } from '../../../i18n/screen-text.ts';

/**
 * Every text of the conference, grouped by the part of the screen that shows it. The words live in the message
 * catalogues (`i18n/catalogues/*.ts`, group `conference`: the spec's own Swedish wording where it gives one, ours
 * where it does not); each property here reads its text in the language the screen is shown in when it is used, so
 * the call's model and media code keep naming a text by its place here. A new part of the screen (captions) adds
 * its own group here and in the catalogues.
 */
const C = sv.conference;

/** The page itself: document titles, headings (the ended heading: a webcast's end, beyond its title unspecified). */
export const PAGE_TEXTS = Object.defineProperties(screenTexts('conference.page', C.page), {
  pageTitle: { enumerable: true, get: () => t('common.pageTitle', { page: t('common.callTitle') }) },
  endedTitle: { enumerable: true, get: () => t('common.pageTitle', { page: t('conference.page.endedTitle') }) },
}) as ReturnType<typeof screenTexts<typeof C.page>> & { readonly pageTitle: string; readonly endedTitle: string };

/** The call status line, and the centre of the video area when no stream is shown (spec §2 "Call status screen"). */
export const STATUS_TEXTS = screenTexts('conference.status', C.status, {
  participating: (n: number) => t('conference.status.participating', { count: n }),
});

/** The toolbar above the video area ('Minimera' leaves the focus layout). */
export const TOOLBAR_TEXTS = screenTexts('conference.toolbar', C.toolbar);

/** The control bar below the video area. */
export const CONTROL_TEXTS = screenTexts('conference.controls', C.controls);

const LAYERS = { 0: 'conference.tile.layerLow', 1: 'conference.tile.layerMedium', 2: 'conference.tile.layerHigh' } as const;
const LEVELS = { danger: 'conference.tile.levelDanger', warning: 'conference.tile.levelWarning', fine: 'conference.tile.levelFine' } as const;

/** A video tile: its name, microphone mark, maximise button and the tools on it (force-mute and signal: ours). */
export const TILE_TEXTS = screenTexts('conference.tile', C.tile, {
  sharesScreen: (name: string) => t('conference.tile.sharesScreen', { name }),
  forceMute: (name: string) => t('conference.tile.forceMute', { name }),
  signal: (name: string) => t('conference.tile.signal', { name }),
  level: (level: string) => (level in LEVELS ? t(LEVELS[level as keyof typeof LEVELS]) : level),
  /** The simulcast layer received (0 low, 1 middle, 2 high): adaptive quality, not in the spec. */
  layerName: (substream: number) => (substream in LAYERS ? t(LAYERS[substream as keyof typeof LAYERS]) : '–'),
});

/** The stage's pins and kept tiles (not in the spec: chosen here). */
export const STAGE_TEXTS = screenTexts('conference.stage', C.stage);

/** Captions from the booked text interpreter (Skrivtolk): the viewer's switches, the lines, the interpreter's field. */
export const CAPTION_TEXTS = screenTexts('conference.captions', C.captions, {
  /** What a screen reader hears for a finished line. */
  announce: (name: string, text: string) => t('conference.captions.announce', { name, text }),
});

/** Screen sharing: the toolbar's sharer line and buttons, the takeover dialog, its failures (spec §2, §4). */
export const SHARE_TEXTS = screenTexts('conference.share', C.share, {
  shares: (name: string) => t('conference.tile.sharesScreen', { name }),
  takeoverQuestion: (name: string) => t('conference.share.takeoverQuestion', { name }),
});

/** The 'Fungerar det inte?' popover (spec §2 Help popover). */
export const HELP_TEXTS = screenTexts('conference.help', C.help);

/** The settings dialog (spec §2 Settings dialog). */
export const SETTINGS_TEXTS = screenTexts('conference.settings', C.settings);

/** The banners above the control bar: errors (spec §8) and the forced mute (spec §2). */
export const BANNER_TEXTS = screenTexts('conference.banners', C.banners);

/** Every error the call can raise (the model's addError takes nothing else): the spec's keys and ours. */
export type CallErrorKey = keyof typeof C.errors;
export const CALL_ERROR_KEYS = Object.keys(C.errors) as CallErrorKey[];

/**
 * Error texts by key (spec §8). Keys in this list are "known" (yellow, shown on every host); anything else shows
 * blue, and only on localhost. Ours, beyond the spec's (its list of known keys is not shown): failures the user must
 * see on any host. Every key the call raises is here (CallErrorKey), so no failure goes unseen in production.
 */
export const ERROR_TEXTS: Record<CallErrorKey, string> = screenTexts('conference.errors', C.errors);

/** Why the connection failed, for the chat's ERROR line (spec §4, §8 "with the failure message"). */
export const CONNECTION_FAILURE_TEXTS = screenTexts('conference.connectionFailures', C.connectionFailures);

export const TROUBLESHOOTING_URL = '/usersupport/troubleshooting#user-media';

/** In place of the video area when the server refuses the media token for want of the lobby's consent (booking spec §4, §5 lobby). */
export const CONSENT_TEXTS = screenTexts('conference.consent', C.consent);
