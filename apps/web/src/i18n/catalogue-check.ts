import type { LanguageCode } from './languages.ts';
import { flatten } from './translator.ts';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The `{{name}}` placeholders and `<tag>` components a text uses, sorted: a translation must use the same. */
export const markers = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((m) => m[0].replace(/\s/g, '')).sort();

export interface CatalogueProblem {
  key: string;
  problem: 'missing' | 'unknown' | 'empty' | 'markers';
}

/**
 * What is wrong with one language's catalogue against the Swedish one: a key missing (it would show Swedish), a key
 * Swedish does not have (a typo nobody reads), an empty text, or placeholders and link tags that differ. A plural
 * key of Swedish (`minutes_one`, `minutes_other`) must be there in every plural form the language has, as
 * Intl.PluralRules names them (Arabic: zero, one, two, few, many, other).
 */
export function catalogueProblems(source: object, translated: object, language: LanguageCode): CatalogueProblem[] {
  const want = flatten(source);
  const have = flatten(translated);
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const expected = new Map<string, string>();
  for (const [key, text] of want) {
    if (!PLURAL_SUFFIX.test(key)) expected.set(key, text);
    else if (key.endsWith('_other')) for (const form of forms) expected.set(key.replace(PLURAL_SUFFIX, `_${form}`), text);
  }
  const problems: CatalogueProblem[] = [];
  for (const [key, text] of expected) {
    const mine = have.get(key);
    if (mine === undefined) problems.push({ key, problem: 'missing' });
    else if (!mine.trim()) problems.push({ key, problem: 'empty' });
    else if (!sameMarkers(text, mine, key)) problems.push({ key, problem: 'markers' });
  }
  for (const key of have.keys()) if (!expected.has(key)) problems.push({ key, problem: 'unknown' });
  return problems;
}

/** A plural form may leave the number out ('دقيقة واحدة', one minute), never add or drop anything else. */
function sameMarkers(source: string, translated: string, key: string): boolean {
  const a = markers(source);
  const b = markers(translated);
  if (PLURAL_SUFFIX.test(key)) {
    const withoutCount = (list: string[]) => list.filter((m) => m !== '{{count}}');
    return withoutCount(a).join() === withoutCount(b).join();
  }
  return a.join() === b.join();
}
