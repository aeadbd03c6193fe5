import { screenText as t } from '../../i18n/screen-text.ts';

/**
 * The chat's texts (conference spec §2, and a few of ours where it is silent), read from the message catalogues
 * (group `chat`) in the language the screen is shown in when they are used.
 */
export const CHAT_TEXTS = {
  get title() {
    return t('chat.title');
  },
  get close() {
    return t('chat.close');
  },
  get on() {
    return t('chat.on');
  },
  get off() {
    return t('chat.off');
  },
  get pauseToggle() {
    return t('chat.pauseToggle');
  },
  get toLatest() {
    return t('chat.toLatest');
  },
  get inputLabel() {
    return t('chat.inputLabel');
  },
  get send() {
    return t('chat.send');
  },
  get emojiButton() {
    return t('chat.emojiButton');
  },
  get emojiList() {
    return t('chat.emojiList');
  },
  get pausedForOthers() {
    return t('chat.pausedForOthers');
  },
  get pausedForModerator() {
    return t('chat.pausedForModerator');
  },
  get you() {
    return t('chat.you');
  },
  get anonymous() {
    return t('chat.anonymous');
  },
  get remove() {
    return t('chat.remove');
  },
  get messages() {
    return t('chat.messages');
  },
  get error() {
    return t('chat.error');
  },
  get info() {
    return t('chat.info');
  },
  get connecting() {
    return t('chat.connecting');
  },
  get connectionFailed() {
    return t('chat.connectionFailed');
  },
  get rightsChanged() {
    return t('chat.rightsChanged');
  },
};

/** The 12 emojis of spec §2, each with its name (Swedish: the spec's) as the accessible name. */
export const EMOJIS: readonly { readonly name: string; char: string }[] = [
  { get name() {
    return t('chat.emoji.happy');
  }, char: '😀' },
  { get name() {
    return t('chat.emoji.surprised');
  }, char: '😮' },
  { get name() {
    return t('chat.emoji.angry');
  }, char: '😠' },
  { get name() {
    return t('chat.emoji.thumbsUp');
  }, char: '👍' },
  { get name() {
    return t('chat.emoji.thumbsDown');
  }, char: '👎' },
  { get name() {
    return t('chat.emoji.waving');
  }, char: '👋' },
  { get name() {
    return t('chat.emoji.clapping');
  }, char: '👏' },
  { get name() {
    return t('chat.emoji.quiet');
  }, char: '🤫' },
  { get name() {
    return t('chat.emoji.heart');
  }, char: '❤️' },
  { get name() {
    return t('chat.emoji.star');
  }, char: '⭐' },
  { get name() {
    return t('chat.emoji.sun');
  }, char: '☀️' },
  { get name() {
    return t('chat.emoji.rainbow');
  }, char: '🌈' },
];
