import { screenText as t } from '../../../i18n/screen-text.ts';

/**
 * Every text of the conference, grouped by the part of the screen that shows it. The words live in the message
 * catalogues (`i18n/catalogues/*.ts`, group `conference`: the spec's own Swedish wording where it gives one, ours
 * where it does not); these getters read them in the language the screen is shown in when they are used, so the
 * call's model and media code keep naming a text by its place here. A new part of the screen (captions) adds its
 * own group here and in the catalogues.
 */

/** The page itself: document titles and headings. */
export const PAGE_TEXTS = {
  get pageTitle() {
    return t('common.pageTitle', { page: t('common.callTitle') });
  },
  get endedTitle() {
    return t('common.pageTitle', { page: t('conference.page.endedTitle') });
  },
  /** Visually hidden: the landmark screen readers jump to. */
  get heading() {
    return t('conference.page.heading');
  },
  /** After a webcast has ended (its content is not specified beyond the title). */
  get endedHeading() {
    return t('conference.page.endedHeading');
  },
  get sidePanel() {
    return t('conference.page.sidePanel');
  },
};

/** The call status line, and the centre of the video area when no stream is shown (spec §2 "Call status screen"). */
export const STATUS_TEXTS = {
  get connecting() {
    return t('conference.status.connecting');
  },
  get connectionFailed() {
    return t('conference.status.connectionFailed');
  },
  get alone() {
    return t('conference.status.alone');
  },
  participating: (n: number) => t('conference.status.participating', { count: n }),
  get noStreams() {
    return t('conference.status.noStreams');
  },
  get reconnecting() {
    return t('conference.status.reconnecting');
  },
};

/** The toolbar above the video area. */
export const TOOLBAR_TEXTS = {
  get settings() {
    return t('conference.toolbar.settings');
  },
  /** Leaves the focus layout. */
  get minimise() {
    return t('conference.toolbar.minimise');
  },
};

/** The control bar below the video area. */
export const CONTROL_TEXTS = {
  get bar() {
    return t('conference.controls.bar');
  },
  get micOff() {
    return t('conference.controls.micOff');
  },
  get micOn() {
    return t('conference.controls.micOn');
  },
  get cameraOff() {
    return t('conference.controls.cameraOff');
  },
  get cameraOn() {
    return t('conference.controls.cameraOn');
  },
  get shareScreen() {
    return t('conference.controls.shareScreen');
  },
  get stopShare() {
    return t('conference.controls.stopShare');
  },
  get hangUp() {
    return t('conference.controls.hangUp');
  },
  get leave() {
    return t('conference.controls.leave');
  },
  get chat() {
    return t('conference.controls.chat');
  },
  get participants() {
    return t('conference.controls.participants');
  },
};

const LEVELS = { danger: 'conference.tile.levelDanger', warning: 'conference.tile.levelWarning', fine: 'conference.tile.levelFine' } as const;

/** A video tile: its name, microphone mark, maximise button and the tools on it. */
export const TILE_TEXTS = {
  get maximise() {
    return t('conference.tile.maximise');
  },
  get minimise() {
    return t('conference.tile.minimise');
  },
  sharesScreen: (name: string) => t('conference.tile.sharesScreen', { name }),
  get micMuted() {
    return t('conference.tile.micMuted');
  },
  get micLive() {
    return t('conference.tile.micLive');
  },
  get blurOn() {
    return t('conference.tile.blurOn');
  },
  get blurOff() {
    return t('conference.tile.blurOff');
  },
  // Not worded by the spec (its admin-only tile section is "not shown"): ours.
  forceMute: (name: string) => t('conference.tile.forceMute', { name }),
  signal: (name: string) => t('conference.tile.signal', { name }),
  get signalCaption() {
    return t('conference.tile.signalCaption');
  },
  get frameRate() {
    return t('conference.tile.frameRate');
  },
  get bitrate() {
    return t('conference.tile.bitrate');
  },
  get packetsLost() {
    return t('conference.tile.packetsLost');
  },
  get video() {
    return t('conference.tile.video');
  },
  get audio() {
    return t('conference.tile.audio');
  },
  level: (level: string) => (level in LEVELS ? t(LEVELS[level as keyof typeof LEVELS]) : level),
};

/** The stage's pins and kept tiles (not in the spec: chosen here). */
export const STAGE_TEXTS = {
  get pin() {
    return t('conference.stage.pin');
  },
  get unpin() {
    return t('conference.stage.unpin');
  },
  get pinned() {
    return t('conference.stage.pinned');
  },
  get interpreter() {
    return t('conference.stage.interpreter');
  },
  get pinLimit() {
    return t('conference.stage.pinLimit');
  },
};

/** Screen sharing: the toolbar's sharer line and buttons, the takeover dialog, its failures (spec §2, §4). */
export const SHARE_TEXTS = {
  get youShare() {
    return t('conference.share.youShare');
  },
  get someoneElse() {
    return t('conference.share.someoneElse');
  },
  shares: (name: string) => t('conference.tile.sharesScreen', { name }),
  takeoverQuestion: (name: string) => t('conference.share.takeoverQuestion', { name }),
  get takeoverConfirm() {
    return t('conference.share.takeoverConfirm');
  },
  get takeoverCancel() {
    return t('conference.share.takeoverCancel');
  },
  get maximiseShare() {
    return t('conference.share.maximiseShare');
  },
  get minimiseShare() {
    return t('conference.share.minimiseShare');
  },
  get failed() {
    return t('conference.share.failed');
  },
  /** Without the takeover right (self-registered people): wait for the share to end. */
  busy: (name: string) => t('conference.share.busy', { name }),
};

/** The 'Fungerar det inte?' popover (spec §2 Help popover). */
export const HELP_TEXTS = {
  get helpTitle() {
    return t('conference.help.helpTitle');
  },
  get helpQuestion() {
    return t('conference.help.helpQuestion');
  },
  get helpAdvice() {
    return t('conference.help.helpAdvice');
  },
  get reload() {
    return t('conference.help.reload');
  },
};

/** The settings dialog (spec §2 Settings dialog). */
export const SETTINGS_TEXTS = {
  get settingsTitle() {
    return t('conference.settings.settingsTitle');
  },
  get videoSource() {
    return t('conference.settings.videoSource');
  },
  get audioSource() {
    return t('conference.settings.audioSource');
  },
  get close() {
    return t('conference.settings.close');
  },
  get cameraError() {
    return t('conference.settings.cameraError');
  },
  get micError() {
    return t('conference.settings.micError');
  },
  get deviceAdvice() {
    return t('conference.settings.deviceAdvice');
  },
  get video() {
    return t('conference.settings.video');
  },
  get audio() {
    return t('conference.settings.audio');
  },
};

/** The banners above the control bar: errors (spec §8) and the forced mute (spec §2). */
export const BANNER_TEXTS = {
  get readMore() {
    return t('conference.banners.readMore');
  },
  get close() {
    return t('conference.banners.close');
  },
  get forcedMute() {
    return t('conference.banners.forcedMute');
  },
  /** Ours; shown with its own text, so it stays an "unknown" (blue) error. */
  get subscribeFailed() {
    return t('conference.banners.subscribeFailed');
  },
};

const ERROR_KEYS = [
  'OT_HARDWARE_UNAVAILABLE',
  'OT_USER_MEDIA_ACCESS_DENIED',
  'networkDisconnected',
  'PUBLISHER_RESTARTING',
  'PUBLISHER_LOSS_RATIO_EXCEEDED',
  'connectionFailed',
  // Ours (the spec's list of known keys is not shown): failures the user must see on any host.
  'SCREEN_SHARE_FAILED',
  'FORCE_MUTE_FAILED',
  'BLUR_FAILED',
  'E2EE_UNSUPPORTED',
] as const;

/** Error texts by key (spec §8). Keys in this list are "known" (yellow); anything else shows blue. */
export const ERROR_TEXTS: Record<string, string> = Object.defineProperties(
  {},
  Object.fromEntries(ERROR_KEYS.map((key) => [key, { enumerable: true, get: () => t(`conference.errors.${key}`) }])),
);

export const TROUBLESHOOTING_URL = '/usersupport/troubleshooting#user-media';

/** In place of the video area when the server refuses the media token for want of the lobby's consent (booking spec §4, §5 lobby). */
export const CONSENT_TEXTS = {
  get heading() {
    return t('conference.consent.heading');
  },
  /** Shown if the server's answer carries no message of its own. */
  get fallback() {
    return t('conference.consent.fallback');
  },
  get toLobby() {
    return t('conference.consent.toLobby');
  },
};
