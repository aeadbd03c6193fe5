import { useEffect, useState } from 'react';
import { useTexts } from '../../../i18n/use-texts.ts';
import { Navigate, useParams } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { takeToken } from '../../../lib/media-token.ts';
import { LoadingSpinner } from '../../../components/ui/loading-spinner.tsx';
import { PAGE_TEXTS } from '../model/texts.ts';
import { nameFormPath } from '../model/public-access-guard.ts';

/**
 * A webcast visitor without a display name is sent to public access to give one (spec §2): the name form of the
 * webcast's room link. Without the room id in the address, the meeting's own is asked for (gettoken, which names
 * the meeting's room, as the conference takes its meeting from it), so the visitor reaches the name form and not
 * the start page, which sends a webcast session on to 'Mötet avslutat!'.
 */
export function PublicAccessGuardPage() {
  // The texts are read in the screen's language; this re-renders the page when the language changes.
  useTexts();
  useDocumentTitle(PAGE_TEXTS.pageTitle);
  const { id = '', roomid } = useParams();
  const [found, setFound] = useState<{ roomId: string | null } | null>(roomid ? { roomId: roomid } : null);
  useEffect(() => {
    if (roomid) return setFound({ roomId: roomid });
    let cancelled = false;
    setFound(null);
    takeToken(id, null).then(
      (data) => !cancelled && setFound({ roomId: data.meeting.roomId }),
      () => !cancelled && setFound({ roomId: null }),
    );
    return () => {
      cancelled = true;
    };
  }, [id, roomid]);
  if (!found) return <LoadingSpinner />;
  return <Navigate to={nameFormPath(found.roomId)} replace />;
}
