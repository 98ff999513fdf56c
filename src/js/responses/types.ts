/**
 * TypeScript types that describe a provable RunPod response: the type argument of the call that
 * produces it (`api<Pod[]>('GET', '/pods')`), an `as Pod[]` cast on it, or the annotation of the
 * variable it is stored in (`const pods: Pod[] = …`). Renamed reads must be matched by renamed type
 * members, and an unwrapped list needs its type argument wrapped (`api<{ pods: Pod[] }>`), or the
 * migrated file would not type-check.
 */
import type { SourceEdit } from '../edits.js';
import { unwrap } from '../scope.js';
import type { N, P, t } from '../ast.js';
import { parentOf } from './tree.js';

/** The type argument of the call whose result is the value at `p` (`api<Pod[]>(…)`, also under `await`). */
export function callTypeArgument(p: P): N | null {
  const n = unwrap(p).value;
  const call = n.type === 'CallExpression' || n.type === 'OptionalCallExpression' ? n : null;
  const params = call?.typeParameters ?? call?.typeArguments;
  return params?.params?.length === 1 ? params.params[0] : null;
}

/** Types the value at `p` is declared with: the call's type argument, a cast, a variable annotation. */
export function typesAt(p: P): N[] {
  const out: N[] = [];
  const arg = callTypeArgument(p);
  if (arg) out.push(arg);
  let q = p;
  for (let parent = parentOf(q); parent; q = parent, parent = parentOf(q)) {
    const pn = parent.value;
    if ((pn.type === 'TSAsExpression' || pn.type === 'TSSatisfiesExpression') && pn.expression === q.value) {
      out.push(pn.typeAnnotation);
      continue;
    }
    if (pn.type === 'ParenthesizedExpression' || pn.type === 'TSNonNullExpression' || (pn.type === 'AwaitExpression' && pn.argument === q.value)) continue;
    if (pn.type === 'VariableDeclarator' && pn.init === q.value && pn.id.type === 'Identifier' && pn.id.typeAnnotation) out.push((pn.id.typeAnnotation as t.TSTypeAnnotation).typeAnnotation);
    break;
  }
  return out;
}

/** `api<Pod[]>(…)` → `api<{ pods: Pod[] }>(…)`: the call now returns the envelope. */
export function wrapTypeArgument(source: string, arg: N, key: string): SourceEdit {
  return { start: arg.start!, end: arg.end!, text: `{ ${key}: ${source.slice(arg.start!, arg.end!)} }`, node: arg };
}

