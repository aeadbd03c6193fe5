import { Type, type Static } from 'typebox';

/**
 * Reports of accessibility problems (the feedback mechanism the Swedish DOS law, 2018:1937, asks of public
 * digital services): anyone may send one from /accessability; administrators read them.
 */
export const ACCESSIBILITY_LIMITS = { description: 4000, pageUrl: 500, contact: 200 } as const;

export const FEEDBACK_MESSAGES = {
  descriptionRequired: 'Du behöver beskriva problemet',
  descriptionTooLong: `Beskrivningen får vara högst ${ACCESSIBILITY_LIMITS.description} tecken`,
  pageUrlTooLong: `Sidan får vara högst ${ACCESSIBILITY_LIMITS.pageUrl} tecken`,
  contactTooLong: `Kontaktuppgiften får vara högst ${ACCESSIBILITY_LIMITS.contact} tecken`,
} as const;

// Lengths are checked by the service, so the user gets the Swedish message of the field that is too long.
export const AccessibilityReportRequest = Type.Object({
  description: Type.String({ maxLength: 20_000 }),
  pageUrl: Type.Optional(Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()])),
  contact: Type.Optional(Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()])),
});
export type AccessibilityReportRequest = Static<typeof AccessibilityReportRequest>;

export const AccessibilityReport = Type.Object({
  id: Type.String(),
  description: Type.String(),
  pageUrl: Type.Union([Type.String(), Type.Null()]),
  contact: Type.Union([Type.String(), Type.Null()]),
  /** Who sent it, by kind only: 'staff', 'eid', 'anonymous' (webcast visitor) or 'none' (not logged in). */
  reporterKind: Type.String(),
  createdAt: Type.String(),
});
export type AccessibilityReport = Static<typeof AccessibilityReport>;

/** What the sender learns of a stored report. */
export const AccessibilityReportReceipt = Type.Object({ id: Type.String(), createdAt: Type.String() });
export type AccessibilityReportReceipt = Static<typeof AccessibilityReportReceipt>;
