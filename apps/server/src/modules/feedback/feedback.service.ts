import { ACCESSIBILITY_LIMITS, FEEDBACK_MESSAGES, type AccessibilityReport, type AccessibilityReportRequest } from '@videomote/contract/feedback';
import type { ErrorItem } from '@videomote/contract/errors';
import { validationError } from '../../platform/errors.ts';
import type { SessionUser } from '../../platform/session.ts';
import type { FeedbackRepository } from './feedback.repository.ts';

const clean = (s: string | null | undefined) => {
  // Control characters other than line breaks and tabs have no place in a report shown to admins.
  const v = (s ?? '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  return v === '' ? null : v;
};

/** Checks a report and returns it cleaned, or throws the spec's error list with Swedish messages. */
export function validateReport(input: AccessibilityReportRequest) {
  const description = clean(input.description);
  const pageUrl = clean(input.pageUrl);
  const contact = clean(input.contact);
  const errors: ErrorItem[] = [];
  if (!description) errors.push({ fields: ['description'], message: FEEDBACK_MESSAGES.descriptionRequired });
  else if (description.length > ACCESSIBILITY_LIMITS.description) errors.push({ fields: ['description'], message: FEEDBACK_MESSAGES.descriptionTooLong });
  if (pageUrl && pageUrl.length > ACCESSIBILITY_LIMITS.pageUrl) errors.push({ fields: ['pageUrl'], message: FEEDBACK_MESSAGES.pageUrlTooLong });
  if (contact && contact.length > ACCESSIBILITY_LIMITS.contact) errors.push({ fields: ['contact'], message: FEEDBACK_MESSAGES.contactTooLong });
  if (errors.length) throw validationError(errors);
  return { description: description!, pageUrl, contact };
}

export class FeedbackService {
  constructor(
    private readonly repo: FeedbackRepository,
    private readonly now: () => Date,
  ) {}

  /** Anyone may report, logged in or not (the law asks for it); who reported is kept by kind only. */
  report(input: AccessibilityReportRequest, reporter: SessionUser | null): Promise<AccessibilityReport> {
    const report = validateReport(input);
    return this.repo.insert({ ...report, reporterKind: reporter?.kind ?? 'none' }, this.now());
  }

  list(): Promise<AccessibilityReport[]> {
    return this.repo.list(500);
  }
}
