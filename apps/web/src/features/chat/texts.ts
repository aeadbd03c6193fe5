import { sv } from '../../i18n/catalogues/sv.ts';
import { screenText as t, screenTexts } from '../../i18n/screen-text.ts';

/**
 * The chat's texts (conference spec §2, and a few of ours where it is silent), read from the message catalogues
 * (group `chat`) in the language the screen is shown in when they are used.
 */
export const CHAT_TEXTS = screenTexts('chat', (({ emoji: _emoji, ...texts }) => texts)(sv.chat));

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
