import { sv } from '../../i18n/catalogues/sv.ts';
import { screenText as t, screenTexts } from '../../i18n/screen-text.ts';

const { title: _title, chatFor: _chatFor, assurance: _a, assuranceShort: _s, hands: _h, announce: _n, ...plain } = sv.participants;

/** The participants panel's texts (conference spec §2), from the catalogues (group `participants`) in the screen's language. */
export const PARTICIPANTS_TEXTS = screenTexts('participants', plain, {
  title: (count: number) => t('participants.title', { count }),
  chatFor: (name: string) => t('participants.chatFor', { name }),
});
