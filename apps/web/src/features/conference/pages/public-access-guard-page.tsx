import { useTexts } from '../../../i18n/use-texts.ts';
import { Navigate, useParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { PAGE_TEXTS } from '../model/texts.ts';

/** A webcast visitor without a display name is sent to public access to give one (spec §2). */
export function PublicAccessGuardPage() {
  // The texts are read in the screen's language; this re-renders the page when the language changes.
  useTexts();
  useDocumentTitle(PAGE_TEXTS.pageTitle);
  const { roomid } = useParams();
  return <Navigate to={roomid ? `/publicaccess/${encodeURIComponent(roomid)}` : '/'} replace />;
}
