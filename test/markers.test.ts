import { describe, expect, it } from 'vitest';
import { isSuppressed, parseMarkers, partitionFindings, type MarkerKind } from '../src/markers/index.js';
import type { Finding } from '../src/findings.js';

/** How each language writes a comment holding `body`, and an ordinary code line. */
const LANGS = {
  js: { file: 'src/a.ts', comment: (b: string) => `// ${b}`, trailing: (code: string, b: string) => `${code} // ${b}`, code: "fetch('https://rest.runpod.io/v1/pods');" },
  jsBlock: { file: 'src/a.tsx', comment: (b: string) => `/* ${b} */`, trailing: (code: string, b: string) => `${code} /* ${b} */`, code: "fetch('https://rest.runpod.io/v1/pods');" },
  py: { file: 'tools/a.py', comment: (b: string) => `# ${b}`, trailing: (code: string, b: string) => `${code}  # ${b}`, code: 'requests.get("https://rest.runpod.io/v1/pods")' },
  sh: { file: 'scripts/a.sh', comment: (b: string) => `# ${b}`, trailing: (code: string, b: string) => `${code} # ${b}`, code: 'curl "$API/pods/$ID/stop"' },
  md: { file: 'docs/a.md', comment: (b: string) => `<!-- ${b} -->`, trailing: (code: string, b: string) => `${code} <!-- ${b} -->`, code: 'Call `https://rest.runpod.io/v1/pods` to list pods.' },
} as const;

const FAMILIES = {
  'v2-migrate': (kind: MarkerKind, scope: string) => `v2-migrate-${kind}${scope}`,
} as const;

const KINDS: MarkerKind[] = ['ignore', 'keep-v1'];

/** Ids after the marker: none (every rule), the rule itself, another rule only. */
const IDS = [
  { name: 'no ids', text: '', matches: true },
  { name: 'naming the rule', text: ' pod-reset, unknown-path', matches: true },
  { name: 'naming another rule', text: ' embedded-url', matches: false },
] as const;

/** Lines 1..8 of code; the marker goes where each scope needs it. Returns the text and the line that must match. */
function layout(lang: (typeof LANGS)[keyof typeof LANGS], scope: 'line' | 'next-line' | 'region' | 'file', marker: (suffix: string) => string): { text: string; target: number; outside: number[] } {
  const c = lang.code;
  switch (scope) {
    case 'line':
      return { text: [c, lang.trailing(c, marker('')), c, ''].join('\n'), target: 2, outside: [1, 3] };
    case 'next-line':
      return { text: [c, lang.comment(marker('-next-line')), c, c, ''].join('\n'), target: 3, outside: [1, 4] };
    case 'region':
      return { text: [c, lang.comment(marker('-start')), c, c, lang.comment(marker('-end')), c, ''].join('\n'), target: 3, outside: [1, 6] };
    case 'file':
      return { text: [lang.comment(marker('-file')), c, c, ''].join('\n'), target: 3, outside: [] };
  }
}

describe('markers: every scope × family × kind × ids × language', () => {
  for (const [langName, lang] of Object.entries(LANGS)) {
    for (const [family, write] of Object.entries(FAMILIES)) {
      for (const kind of KINDS) {
        for (const scope of ['line', 'next-line', 'region', 'file'] as const) {
          for (const ids of IDS) {
            it(`${langName} ${family} ${kind} ${scope} ${ids.name}`, () => {
              // The ids follow the marker word (for -start, on the start line; -end takes none).
              const { text, target, outside } = layout(lang, scope, (suffix) => `${write(kind, suffix)}${suffix === '-end' ? '' : ids.text}`);
              const index = parseMarkers(text, lang.file);
              expect(index.markers.length, text).toBeGreaterThan(0);
              expect(index.problems).toEqual([]);
              expect(index.match(target, 'pod-reset'), text).toBe(ids.matches ? kind : null);
              expect(isSuppressed(index, target, 'pod-reset')).toBe(ids.matches);
              for (const line of outside) expect(index.match(line, 'pod-reset'), `line ${line} of\n${text}`).toBeNull();
            });
          }
        }
      }
    }
  }
});

/** RunPod's helper's family: `rp-migrate: <kind>`, then ` start` / ` end` / ` file`; any text after is a reason. */
describe('markers: RunPod\'s rp-migrate family, as its helper reads it', () => {
  const TRAILING = [
    { name: 'bare', text: '' },
    { name: 'with a note', text: '  (rollback path, remove once the flag is gone)' },
    { name: 'with words that look like rule ids', text: ' embedded-url pod-reset' },
  ];
  const layouts = (lang: (typeof LANGS)[keyof typeof LANGS], kind: MarkerKind, note: string) => {
    const c = lang.code;
    const m = (scope: string) => `rp-migrate: ${kind}${scope}${note}`;
    return {
      line: { text: [c, lang.trailing(c, m('')), c, ''].join('\n'), covered: [2], outside: [1, 3] },
      region: { text: [c, lang.comment(m(' start')), c, c, lang.comment(m(' end')), c, ''].join('\n'), covered: [2, 3, 4, 5], outside: [1, 6] },
      file: { text: [c, c, lang.comment(m(' file')), c, ''].join('\n'), covered: [1, 2, 4], outside: [] },
    };
  };
  for (const [langName, lang] of Object.entries(LANGS)) {
    for (const kind of KINDS) {
      for (const note of TRAILING) {
        for (const [scope, { text, covered, outside }] of Object.entries(layouts(lang, kind, note.text))) {
          it(`${langName} ${kind} ${scope} ${note.name}`, () => {
            const index = parseMarkers(text, lang.file);
            expect(index.problems, text).toEqual([]);
            expect(index.markers.every((mk) => mk.family === 'rp-migrate' && mk.ruleIds.length === 0), text).toBe(true);
            for (const line of covered) {
              // No rule ids in this family: every rule is covered.
              for (const rule of ['base-url', 'pod-reset', 'embedded-url']) expect(index.match(line, rule), `line ${line} ${rule} of\n${text}`).toBe(kind);
            }
            for (const line of outside) expect(index.match(line, 'base-url'), `line ${line} of\n${text}`).toBeNull();
          });
        }
      }
    }
  }

  it('reads the scope word after a space, keeps the rest of the line as the reason', () => {
    const py = [
      'BASE = "https://api.runpod.io/v2"',
      'if os.environ.get("USE_OLD_API"):',
      '    # rp-migrate: keep-v1 start  (old path behind a flag, drop with the flag)',
      '    BASE = "https://rest.runpod.io/v1"',
      '    # rp-migrate: keep-v1 end',
      'requests.get(f"{BASE}/pods")',
      '',
    ].join('\n');
    const index = parseMarkers(py, 'client.py');
    expect(index.problems).toEqual([]);
    expect(index.markers.map((m) => [m.scope, m.reason])).toEqual([['start', '(old path behind a flag, drop with the flag)'], ['end', '']]);
    expect(index.match(4, 'base-url')).toBe('keep-v1');
    expect(index.match(6, 'base-url')).toBeNull();
  });

  it('counts a marker anywhere inside a comment, never in a string', () => {
    expect(parseMarkers('x = f()  # checked by hand; rp-migrate: ignore\n', 'a.py').match(1, 'base-url')).toBe('ignore');
    expect(parseMarkers('fetch(u); // kept for the old dashboard, rp-migrate: keep-v1\n', 'a.ts').match(1, 'base-url')).toBe('keep-v1');
    expect(parseMarkers('/* TODO(ops) rp-migrate: ignore file */\n', 'a.ts').match(7, 'x')).toBe('ignore');
    expect(parseMarkers('s = "rp-migrate: ignore"\n', 'a.py').markers).toEqual([]);
    expect(parseMarkers("const u = 'https://x.y/#rp-migrate: ignore';\n", 'a.ts').markers).toEqual([]);
    expect(parseMarkers('n=${#items[@]} rp-migrate: ignore\n', 'a.sh').markers).toEqual([]);
    expect(parseMarkers('x = 1 # rp-migrate: ignored\n', 'a.py').markers).toEqual([]);
  });

  it('keep-v1 wins over ignore on a line both cover, whatever their scopes', () => {
    const text = [
      '# rp-migrate: ignore file', // 1
      'a()', // 2
      '# rp-migrate: keep-v1 start', // 3
      'b()  # rp-migrate: ignore', // 4
      '# rp-migrate: keep-v1 end', // 5
      'c()  # rp-migrate: keep-v1  rp-migrate: ignore', // 6
      '',
    ].join('\n');
    const index = parseMarkers(text, 'a.py');
    expect(index.match(2, 'x')).toBe('ignore');
    expect(index.match(4, 'x')).toBe('keep-v1');
    expect(index.match(6, 'x')).toBe('keep-v1');
    expect(parseMarkers('# rp-migrate: keep-v1 file\nx()  # rp-migrate: ignore\n', 'a.py').match(2, 'x')).toBe('keep-v1');
  });

  it('says so when a hyphenated scope is written (RunPod reads it as this line only)', () => {
    const index = parseMarkers('# rp-migrate: ignore-start\nx()\n# rp-migrate: ignore-end\n', 'a.py');
    expect(index.match(2, 'x')).toBeNull();
    expect(index.problems.map((p) => p.message)).toEqual([
      "rp-migrate: ignore-start is not RunPod's spelling and marks this line only; write rp-migrate: ignore start.",
      "rp-migrate: ignore-end is not RunPod's spelling and marks this line only; write rp-migrate: ignore end.",
    ]);
  });
});

describe('markers: comment syntax', () => {
  it('needs a comment of the file’s language', () => {
    expect(parseMarkers("const s = 'v2-migrate-ignore';\n", 'a.ts').markers).toEqual([]);
    expect(parseMarkers('x = 1 # v2-migrate-ignore\n', 'a.ts').markers).toEqual([]); // `#` is not a JS comment
    expect(parseMarkers('x = 1 // v2-migrate-ignore\n', 'a.py').markers).toEqual([]); // `//` is not a Python comment
    expect(parseMarkers('Text v2-migrate-ignore here\n', 'a.md').markers).toEqual([]);
    expect(parseMarkers('x // v2-migrate-ignored\n', 'a.ts').markers).toEqual([]);
    expect(parseMarkers('x // v2-migrate-ignore-everything\n', 'a.ts').markers).toEqual([]);
  });

  it('accepts the other languages of the issue: YAML, TOML, .env, Dockerfile, Terraform, .http', () => {
    for (const file of ['a.yml', 'a.yaml', 'pyproject.toml', '.env', '.env.production', 'Dockerfile', 'main.tf', 'api.http']) {
      const index = parseMarkers('URL=https://rest.runpod.io/v1 # v2-migrate-keep-v1\n', file);
      expect(index.match(1, 'base-url'), file).toBe('keep-v1');
    }
    expect(parseMarkers('GET https://rest.runpod.io/v1/pods // v2-migrate-ignore\n', 'api.http').match(1, 'base-url')).toBe('ignore');
  });

  it('handles multi-line block comments: next-line is the line after the comment ends', () => {
    const js = ['/*', ' * v2-migrate-keep-v1-next-line -- the ops dashboard still calls v1', ' */', 'call();', 'other();', ''].join('\n');
    const index = parseMarkers(js, 'a.ts');
    expect(index.markers[0]).toMatchObject({ kind: 'keep-v1', scope: 'next-line', line: 2, endLine: 3, reason: 'the ops dashboard still calls v1', ruleIds: [] });
    expect(index.match(4, 'pod-reset')).toBe('keep-v1');
    expect(index.match(5, 'pod-reset')).toBeNull();

    const md = ['<!-- v2-migrate-ignore-next-line', 'this page documents the old API -->', 'https://rest.runpod.io/v1/pods', ''].join('\n');
    expect(parseMarkers(md, 'a.md').match(3, 'prose-url')).toBe('ignore');
  });

  it('takes JSDoc, JSX and ids in a block comment', () => {
    expect(parseMarkers('/** v2-migrate-ignore-file */\n', 'a.js').match(9, 'x')).toBe('ignore');
    expect(parseMarkers('<p>{/* v2-migrate-keep-v1 embedded-url */} https://rest.runpod.io/v1</p>\n', 'a.jsx').match(1, 'embedded-url')).toBe('keep-v1');
    const index = parseMarkers('call(); /* v2-migrate-ignore pod-reset */ other();\n', 'a.ts');
    expect(index.markers[0]!.ruleIds).toEqual(['pod-reset']);
  });

  it('uses the fence language inside Markdown code blocks', () => {
    const md = [
      '# Runbook', // 1 (a heading, not a comment)
      '```sh', // 2
      'curl -X POST "$API/pods/$ID/reset" # v2-migrate-keep-v1', // 3
      '# v2-migrate-ignore-next-line', // 4
      'curl "$API/pods"', // 5
      '```', // 6
      '```js', // 7
      "fetch('https://rest.runpod.io/v1/pods') // rp-migrate: ignore", // 8
      '```', // 9
      '# v2-migrate-ignore', // 10: outside a fence `#` is a heading
      '',
    ].join('\n');
    const index = parseMarkers(md, 'README.md');
    expect(index.match(3, 'pod-reset')).toBe('keep-v1');
    expect(index.match(5, 'base-url')).toBe('ignore');
    expect(index.match(8, 'base-url')).toBe('ignore');
    expect(index.match(10, 'base-url')).toBeNull();
    expect(index.markers).toHaveLength(3);
  });

  it('counts CRLF line endings like LF', () => {
    const text = 'a();\r\n// v2-migrate-ignore-next-line\r\nb();\r\n';
    expect(parseMarkers(text, 'a.ts').match(3, 'base-url')).toBe('ignore');
  });
});

describe('markers: precedence and problems', () => {
  it('prefers the most specific scope; keep-v1 wins a tie', () => {
    const text = [
      '// v2-migrate-ignore-file', // 1
      '// v2-migrate-keep-v1-start', // 2
      'a();', // 3
      '// v2-migrate-ignore-start', // 4
      'b();', // 5
      '// v2-migrate-ignore-end', // 6
      'c(); // v2-migrate-ignore', // 7
      '// v2-migrate-keep-v1-end', // 8
      'd();', // 9
      '// v2-migrate-ignore-next-line', // 10
      'e(); // v2-migrate-keep-v1', // 11
      '',
    ].join('\n');
    const index = parseMarkers(text, 'a.ts');
    expect(index.problems).toEqual([]);
    expect(index.match(3, 'x')).toBe('keep-v1'); // region beats file
    expect(index.match(5, 'x')).toBe('ignore'); // inner region beats outer
    expect(index.match(7, 'x')).toBe('ignore'); // line beats region
    expect(index.match(9, 'x')).toBe('ignore'); // file
    expect(index.match(11, 'x')).toBe('keep-v1'); // line vs next-line: a tie, keep-v1 wins
  });

  it('a marker naming other rules does not hide a wider one', () => {
    const text = '// v2-migrate-keep-v1-file\nx(); // v2-migrate-ignore embedded-url\n';
    const index = parseMarkers(text, 'a.ts');
    expect(index.match(2, 'embedded-url')).toBe('ignore');
    expect(index.match(2, 'pod-reset')).toBe('keep-v1');
  });

  it('reports unknown rule ids (the marker then matches nothing), unmatched ends and unclosed starts', () => {
    const text = ['x(); // v2-migrate-keep-v1 legacy proxy', 'y(); // v2-migrate-keep-v1 -- legacy proxy', '// v2-migrate-ignore-end', '// rp-migrate: ignore start', 'z();', ''].join('\n');
    const index = parseMarkers(text, 'a.ts');
    expect(index.match(1, 'base-url')).toBeNull();
    expect(index.match(2, 'base-url')).toBe('keep-v1');
    expect(index.markers[1]!.reason).toBe('legacy proxy');
    expect(index.match(5, 'base-url')).toBe('ignore'); // unclosed: to the end of the file
    const messages = index.problems.map((p) => `${p.line}: ${p.message}`);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toMatch(/^1: v2-migrate-keep-v1 names "legacy", which is not a rule id/);
    expect(messages[1]).toMatch(/^1: .*"proxy"/);
    expect(messages.some((m) => /^3: v2-migrate-ignore-end has no matching v2-migrate-ignore-start/.test(m))).toBe(true);
    expect(messages.some((m) => /^4: rp-migrate: ignore start is never closed by rp-migrate: ignore end/.test(m))).toBe(true);
  });

  it('an end closes the innermost open region of its own kind', () => {
    const text = ['// v2-migrate-ignore-start', '// v2-migrate-keep-v1-start', 'a();', '// v2-migrate-ignore-end', 'b();', '// v2-migrate-keep-v1-end', 'c();', ''].join('\n');
    const index = parseMarkers(text, 'a.ts');
    expect(index.match(3, 'x')).toBe('keep-v1');
    expect(index.match(5, 'x')).toBe('keep-v1');
    expect(index.match(7, 'x')).toBeNull();
  });
});

describe('partitionFindings / isSuppressed', () => {
  const f = (line: number, ruleId: Finding['ruleId']): Finding => ({ ruleId, severity: 'error', line, column: 1, message: 'm', fixable: false });

  it('splits findings into active, ignored and kept, keeping order', () => {
    const text = "a(); // v2-migrate-ignore\nb(); // v2-migrate-keep-v1 pod-reset\nc();\n";
    const index = parseMarkers(text, 'a.ts');
    const findings = [f(1, 'base-url'), f(2, 'pod-reset'), f(2, 'base-url'), f(3, 'pod-reset')];
    const parts = partitionFindings(findings, index);
    expect(parts.ignored).toEqual([findings[0]]);
    expect(parts.kept).toEqual([findings[1]]);
    expect(parts.active).toEqual([findings[2], findings[3]]);
  });

  it('without markers everything is active; isSuppressed accepts no index', () => {
    const findings = [f(1, 'base-url')];
    expect(partitionFindings(findings, parseMarkers('a();\n', 'a.ts')).active).toEqual(findings);
    expect(partitionFindings(findings, null).active).toEqual(findings);
    expect(isSuppressed(undefined, 1, 'base-url')).toBe(false);
  });
});
