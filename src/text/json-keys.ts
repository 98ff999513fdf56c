/**
 * Where the top-level keys of a JSON object are written (a `curl -d '{…}'` body): the offsets of each
 * key's name between its quotes. The text must already parse as JSON; a key written with an escape, or
 * twice, is left out (its name is not the text as written, or renaming one would not rename the other).
 */
export function topLevelKeys(text: string): Map<string, { start: number; end: number }> {
  const keys = new Map<string, { start: number; end: number }>();
  const twice = new Set<string>();
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      let escaped = false;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\') {
          escaped = true;
          j++;
        }
      }
      if (depth === 1 && expectKey) {
        const name = text.slice(i + 1, j);
        if (keys.has(name) || escaped) twice.add(name);
        else keys.set(name, { start: i + 1, end: j });
        expectKey = false;
      }
      i = j;
    } else if (ch === '{' || ch === '[') {
      depth++;
      if (depth === 1) expectKey = ch === '{';
    } else if (ch === '}' || ch === ']') depth--;
    else if (ch === ',' && depth === 1) expectKey = true;
  }
  for (const name of twice) keys.delete(name);
  return keys;
}

/** `topLevelKeys` of a text that is one JSON object (a request body), or none when it is anything else. */
export function jsonBodyKeys(text: string): Map<string, { start: number; end: number }> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return topLevelKeys(text);
  } catch {
    // Not plain JSON (a `{{variable}}` outside a string, a comment): nothing is renamed.
  }
  return new Map();
}
