import { describe, expect, it } from 'vitest';
import { syntaxError } from '../src/js/parse.js';

// syntaxError asks oxc first and Babel when oxc rejects: Babel's verdict must be the answer either way.
describe('syntaxError (the check of every rewritten file)', () => {
  it.each([
    ['a.js', 'let a = 1;\nlet a = 2;\n'],
    ['a.ts', "import { get } from 'a';\nimport { get } from 'b';\n"],
    ['a.js', "import { api } from './api';\nconst api = 1;\n"],
    ['a.js', 'function f() { const x = 1; const x = 2; }\n'],
    ['a.js', 'loop: loop: for (;;) {}\n'],
    ['a.js', 'break;\n'],
    ['a.js', "'use strict';\nfunction f(a, a) {}\n"],
    ['a.ts', 'const o = { a: 1 ;\n'],
  ])('rejects what Babel rejects (%s: %j)', (file, source) => {
    expect(syntaxError(source, file)).toMatch(/./);
  });

  it.each([
    ['a.js', 'return 1;\n'],
    ['a.js', 'const el = <div />;\n'],
    ['a.cjs', 'if (module.parent) return;\nmodule.exports = 1;\n'],
    ['a.ts', 'await main();\nexport {};\n'],
    ['a.tsx', 'export const A = (p: { n: number }) => <b>{p.n}</b>;\n'],
    ['a.mts', "import x = require('x');\nexport default x;\n"],
  ])('accepts what Babel accepts with the input\'s options (%s: %j)', (file, source) => {
    expect(syntaxError(source, file)).toBeNull();
  });
});
