import { useEffect, useLayoutEffect, useState } from 'react';
import { clientConfigNow, loadClientConfig } from '../lib/client-config.ts';

export const TEST_SYSTEM_TEXT = 'Testinloggning – inte för riktiga möten';

/**
 * While the server logs people in through its embedded test IdP (anyone may pick any persona or personnummer),
 * every page says so at the top, the conference included: nobody should hold a real meeting on such a system.
 * A fixed strip (the conference fills the window); html.test-system moves the header, menu and conference below it.
 */
export function TestSystemBanner() {
  // The configuration is in the page's HTML: the strip is there from the first paint, not pushed in above the page a
  // moment later (which shifted everything below it, a layout shift every visitor saw).
  const [active, setActive] = useState(() => clientConfigNow()?.testIdp ?? false);
  useEffect(() => {
    void loadClientConfig().then(
      (c) => setActive(c.testIdp),
      () => setActive(false),
    );
  }, []);
  useLayoutEffect(() => {
    document.documentElement.classList.toggle('test-system', active);
  }, [active]);
  if (!active) return null;
  return (
    <aside className="test-system-banner" aria-label="Testsystem">
      <p>
        <strong>{TEST_SYSTEM_TEXT}</strong>
        <span className="test-system-banner__more"> Här kan vem som helst logga in som vem som helst.</span>
      </p>
    </aside>
  );
}
