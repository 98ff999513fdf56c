import ignore, { type Ignore } from 'ignore';

/** The rules of one .gitignore (or git's exclude files), and whether a file's name alone decides them. */
export interface IgnoreRules {
  rules: Ignore;
  /**
   * No negation, and every pattern either holds no '/' (it matches a name at any depth) or ends with
   * one (it matches only folders, which the walk never enters when ignored). Then, for a file in a
   * folder the walk entered, the verdict depends on the file's name only, and can be looked up by
   * name instead of testing the whole path (most trees' .gitignore files are like this).
   */
  byName: boolean;
}

/** `ignoreCase`: git's core.ignoreCase (patterns match names in any case). */
export function ignoreRules(text: string, ignoreCase: boolean): IgnoreRules {
  const patterns = text.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l && !l.startsWith('#'));
  const byName = patterns.every((p) => !p.startsWith('!') && !p.includes('\\') && (p.endsWith('/') || !p.includes('/')));
  return { rules: ignore({ ignoreCase }).add(text), byName };
}
