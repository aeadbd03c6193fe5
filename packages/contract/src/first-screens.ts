/**
 * One page's first screen, as the web's build writes it into dist/first-screens.json (apps/web/src/first-screens.tsx)
 * and the server puts it into that page's HTML (apps/server/src/platform/first-screens.ts).
 */
export interface FirstScreen {
  /** The page's path; a `:name` segment matches any one segment. */
  path: string;
  /** The page's title (plain text). */
  title: string;
  /** The markup of the app's root element: the visitor's shell and the page's first content, in Swedish, for a browser that has accepted the cookie notice ... */
  html: string;
  /** ... and for one that has not (the `acceptcookies` cookie): with the notice. */
  htmlWithCookieNotice: string;
  /** An external person's screen, shown in their language: sent only to a browser that reads Swedish first. */
  external: boolean;
  /**
   * The app's loading screen, for a page whose first content needs what no HTML can carry (the meeting screen: the
   * call). Its scripts keep their priority: they are what the page waits for, not something after its first paint.
   */
  loading?: boolean;
}
