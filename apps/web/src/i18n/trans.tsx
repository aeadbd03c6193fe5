import { cloneElement, Fragment, type ReactElement, type ReactNode } from 'react';
import type { TextKey, TextValues, Translate } from './translator.ts';
import { useTexts } from './use-texts.ts';

/**
 * A text with links in it: each `<name>…</name>` of the text becomes `components[name]` with that part of the text
 * as its children (`<Trans i18nKey="shell.cookieText" components={{ anchor: <Link to="/personaldata" /> }} />`).
 * The tags are not nested in any catalogue; a tag without a component shows its text plainly.
 */
export function Trans({ i18nKey, values, components, t }: { i18nKey: TextKey; values?: TextValues; components: Record<string, ReactElement>; t?: Translate }) {
  const screen = useTexts().t;
  return <>{withComponents((t ?? screen)(i18nKey, values), components)}</>;
}

export function withComponents(text: string, components: Record<string, ReactElement>): ReactNode[] {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(/<(\w+)>([\s\S]*?)<\/\1>/g)) {
    if (m.index > at) parts.push(text.slice(at, m.index));
    const component = components[m[1]!];
    parts.push(component ? cloneElement(component, { key: parts.length }, m[2]) : <Fragment key={parts.length}>{m[2]}</Fragment>);
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}
