import { screenText as t } from '../../i18n/screen-text.ts';

/** The participants panel's texts (conference spec §2), from the catalogues (group `participants`) in the screen's language. */
export const PARTICIPANTS_TEXTS = {
  title: (count: number) => t('participants.title', { count }),
  chatFor: (name: string) => t('participants.chatFor', { name }),
  get presenters() {
    return t('participants.presenters');
  },
  get participants() {
    return t('participants.participants');
  },
  get close() {
    return t('participants.close');
  },
  get chatOn() {
    return t('participants.chatOn');
  },
  get chatOff() {
    return t('participants.chatOff');
  },
  get micOn() {
    return t('participants.micOn');
  },
  get micOff() {
    return t('participants.micOff');
  },
  get cameraOn() {
    return t('participants.cameraOn');
  },
  get cameraOff() {
    return t('participants.cameraOff');
  },
  get you() {
    return t('participants.you');
  },
  get moderator() {
    return t('participants.moderator');
  },
  get anonymous() {
    return t('participants.anonymous');
  },
};
