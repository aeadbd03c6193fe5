import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { MeetingsGuard } from './components/meetings-guard.tsx';
import { RequireEditMeeting } from './components/require-edit-meeting.tsx';

const guarded = (load: () => Promise<ComponentType>, editMeeting = false) => async () => {
  const Page = await load();
  return {
    Component: () => (
      <MeetingsGuard>{editMeeting ? <RequireEditMeeting><Page /></RequireEditMeeting> : <Page />}</MeetingsGuard>
    ),
  };
};

const home = () => import('./pages/home-page.tsx').then((m) => m.HomePage);
const form = () => import('./pages/meeting-form-page.tsx').then((m) => m.MeetingFormPage);
const confirmation = () => import('./pages/confirmation-page.tsx').then((m) => m.ConfirmationPage);
const deleted = () => import('./pages/confirmation-page.tsx').then((m) => m.DeletedPage);

/** Booking spec §2 meeting routes; lobby, signup and conference belong to their own features. */
export const meetingsRoutes: RouteObject[] = [
  { path: 'meetings', lazy: guarded(home) },
  { path: 'meetings/new', lazy: guarded(form, true) },
  { path: 'meetings/deleted', lazy: guarded(deleted) },
  { path: 'meetings/:id/edit', lazy: guarded(form, true) },
  { path: 'meetings/:id/copy', lazy: guarded(form, true) },
  { path: 'meetings/:id/saved', lazy: guarded(confirmation) },
  { path: 'meetings/:id/updated', lazy: guarded(confirmation) },
];
