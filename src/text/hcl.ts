/**
 * Terraform / HCL, read with tree-sitter-hcl (text/grammars.ts): strings (with `${var.x}` /
 * `${local.x}` resolved to the file's variable defaults and locals) holding v1 URLs are planned as
 * literals; `data "http"` blocks are requests (their `method` picks the operation); heredocs that run
 * `curl` are scanned as shell.
 */
import type { HttpMethod } from '../map/operations.js';
import { holePiece, planRequest, planValue, type Collector, type TPiece } from './plan.js';
import { backslash, runs } from './strings.js';
import { maskOutside } from '../util/mask.js';
import { scanShell } from './shell.js';
import { parseWith, syntaxErrors, type SyntaxNode } from './grammars.js';
import { ParseCache } from './parse-cache.js';
import { mentionsGraphql, scanGraphql } from './fields.js';

interface HclString {
  start: number;
  end: number;
  /** Raw pieces: literal runs, and `${…}` interpolations as holes labelled with their expression. */
  pieces: TPiece[];
}

interface Attr {
  name: string;
  block: Block | null;
  /** The value when it is a single string or a bare reference. */
  str?: HclString;
  ref?: string;
  at: number;
}

interface Block {
  type: string;
  labels: string[];
  attrs: Attr[];
}

/** A string's literal text between `from` and `to`: backslash escapes and `$${` / `%%{` are not editable. */
function literalPieces(text: string, from: number, to: number, literal: number): TPiece[] {
  const pieces: TPiece[] = [];
  let run = from;
  let j = from;
  while (j < to) {
    if (text[j] === '\\') {
      j += 2;
      continue;
    }
    if (text.startsWith('$${', j) || text.startsWith('%%{', j)) {
      if (j > run) pieces.push(...runs(text, run, j, literal, backslash));
      pieces.push({ kind: 'text', text: text.slice(j + 1, j + 3), origin: { start: j, editable: false, literal, local: false } });
      j += 3;
      run = j;
      continue;
    }
    j++;
  }
  if (to > run) pieces.push(...runs(text, run, to, literal, backslash));
  return pieces;
}

/** `${…}` interpolations and `%{…}` directive markers of a template, as [start, end) ranges (not entering interpolations). */
function holesOf(node: SyntaxNode, out: Array<[number, number]> = []): Array<[number, number]> {
  let open: number | null = null;
  for (const child of node.children) {
    if (child.type === 'template_interpolation') out.push([child.startIndex, child.endIndex]);
    else if (child.type === 'template_directive_start') open = child.startIndex;
    else if (child.type === 'template_directive_end' && open !== null) {
      out.push([open, child.endIndex]);
      open = null;
    } else if (open === null && child.childCount) holesOf(child, out);
  }
  return out;
}

/** A quoted string (`string_lit` / `quoted_template`): literal runs, and each hole labelled with its expression. */
function stringOf(text: string, node: SyntaxNode): HclString {
  const start = node.startIndex;
  const close = node.lastChild?.type === 'quoted_template_end' ? node.lastChild.startIndex : node.endIndex;
  const pieces: TPiece[] = [];
  let at = start + 1;
  for (const [s, e] of holesOf(node).sort((a, b) => a[0] - b[0])) {
    pieces.push(...literalPieces(text, at, s, start), holePiece(text.slice(s + 2, e - 1).trim(), s));
    at = e;
  }
  pieces.push(...literalPieces(text, at, close, start));
  return { start, end: node.endIndex, pieces };
}

function textOf(text: string, node: SyntaxNode): string {
  return text.slice(node.startIndex, node.endIndex);
}

/** The one string, or the bare `var.x` / `local.x`, an attribute's value is. */
function valueOf(text: string, expression: SyntaxNode | null): Pick<Attr, 'str' | 'ref'> {
  let node = expression;
  while (node && (node.type === 'expression' || node.type === 'literal_value' || node.type === 'template_expr') && node.namedChildCount === 1) node = node.namedChild(0);
  if (node && (node.type === 'string_lit' || node.type === 'quoted_template')) return { str: stringOf(text, node) };
  const ref = expression ? textOf(text, expression) : '';
  return /^(var|local)\.[A-Za-z0-9_-]+$/.test(ref) ? { ref } : {};
}

/** The tree-sitter-hcl reading of the file: its strings (those inside interpolations too), block attributes, and heredocs. */
function readHcl(text: string, root: SyntaxNode): { strings: HclString[]; attrs: Attr[]; heredocs: Array<{ from: number; to: number }> } {
  const strings: HclString[] = [];
  const attrs: Attr[] = [];
  const heredocs: Array<{ from: number; to: number }> = [];
  const visit = (node: SyntaxNode, block: Block | null): void => {
    switch (node.type) {
      case 'string_lit':
      case 'quoted_template':
        strings.push(stringOf(text, node));
        break;
      case 'heredoc_template': {
        // Its body is planned line by line, or scanned as shell when it runs curl (below).
        const first = node.children.find((c) => c.type === 'heredoc_identifier');
        const last = node.lastChild;
        if (!first || !last || last.type !== 'heredoc_identifier' || last.startIndex === first.startIndex) return;
        const nl = text.indexOf('\n', first.endIndex);
        if (nl >= 0 && nl < last.startIndex) heredocs.push({ from: nl + 1, to: text.lastIndexOf('\n', last.startIndex - 1) + 1 });
        return;
      }
      case 'block': {
        // `data "http" "pods" {`: the type, then labels (quoted or bare).
        const [type, ...rest] = node.namedChildren;
        const labels = rest.filter((c) => c.type === 'string_lit' || c.type === 'identifier').map((l) => (l.type === 'string_lit' ? text.slice(l.startIndex + 1, l.endIndex - 1) : textOf(text, l)));
        const inner: Block = { type: type ? textOf(text, type) : '', labels, attrs: [] };
        for (const child of node.children) visit(child, inner);
        return;
      }
      case 'attribute': {
        const name = node.firstNamedChild;
        const expression = node.namedChildren.find((c) => c.type === 'expression') ?? null;
        // Only a block's own attributes count (not the keys of an object value).
        const owner = node.parent?.parent?.type === 'block' ? block : null;
        const attr: Attr = { name: name ? textOf(text, name) : '', block: owner, at: node.startIndex, ...valueOf(text, expression) };
        attrs.push(attr);
        owner?.attrs.push(attr);
        break;
      }
    }
    for (const child of node.children) visit(child, block);
  };
  visit(root, null);
  strings.sort((a, b) => a.start - b.start);
  return { strings, attrs, heredocs };
}

type HclSyntax = ReturnType<typeof readHcl> & {
  /** ERROR and MISSING nodes of the parse (a rewrite may not add any). */
  errors: number;
};

const parses = new ParseCache<HclSyntax>();

/** Syntax errors of a text: its kept reading's (the original a scan read), else a parse that only counts them (a rewrite). */
export function hclErrors(text: string): number {
  return parses.peek(text)?.errors ?? parseWith('hcl', text, syntaxErrors);
}

/** The HCL syntax of a text: parsed once, then reused by the scan and the check of its rewrite. */
export function hclSyntax(text: string): HclSyntax {
  return parses.get(text, () => parseWith('hcl', text, (tree) => ({ ...readHcl(text, tree.rootNode), errors: syntaxErrors(tree) })));
}

export function scanHcl(c: Collector, text: string): void {
  planHcl(c, text, hclSyntax(text));
}

function planHcl(c: Collector, text: string, { strings, attrs, heredocs }: ReturnType<typeof readHcl>): void {
  const shellRanges: Array<[number, number]> = [];
  const heredocLines: Array<[number, number]> = [];
  for (const { from, to } of heredocs) {
    if (/(^|\s)curl\s/.test(text.slice(from, to))) {
      shellRanges.push([from, to]);
      continue;
    }
    for (let k = from; k < to; ) {
      const e = text.indexOf('\n', k);
      heredocLines.push([k, e < 0 || e > to ? to : e]);
      k = e < 0 ? to : e + 1;
    }
  }
  const varDefault = new Map<string, HclString>();
  const locals = new Map<string, HclString>();
  for (const a of attrs) {
    if (!a.block || !a.str) continue;
    if (a.block.type === 'locals') locals.set(a.name, a.str);
    // `variable "name" { default = "…" }`
    if (a.block.type === 'variable' && a.name === 'default' && a.block.labels.length === 1) varDefault.set(a.block.labels[0]!, a.str);
  }
  const resolve = (pieces: TPiece[], depth = 0): TPiece[] =>
    pieces.flatMap((p) => {
      if (p.kind !== 'hole' || depth > 4) return [p];
      const m = /^(var|local)\.([A-Za-z0-9_-]+)$/.exec(p.label);
      const target = m ? (m[1] === 'var' ? varDefault.get(m[2]!) : locals.get(m[2]!)) : undefined;
      return target ? resolve(target.pieces, depth + 1) : [p];
    });

  if (shellRanges.length) scanShell(c, maskOutside(text, shellRanges), { graphql: false });

  // `data "http" "x" { url = …, method = "POST" }`: a request.
  for (const a of attrs) {
    if (a.name !== 'url' || !a.block || !(a.block.type === 'data' || a.block.type === 'resource') || a.block.labels[0] !== 'http' || a.block.labels.length !== 2) continue;
    let url: TPiece[] | null = null;
    if (a.str) url = resolve(a.str.pieces);
    else if (a.ref) url = resolve([holePiece(a.ref, a.at)]);
    if (!url) continue;
    const start = a.str?.start ?? a.at;
    url = url.map((p) => (p.kind === 'text' && p.origin.literal === start ? { ...p, origin: { ...p.origin, local: true } } : p));
    const methodAttr = a.block.attrs.find((x) => x.name === 'method');
    const methodText = methodAttr?.str ? text.slice(methodAttr.str.start + 1, methodAttr.str.end - 1).toUpperCase() : 'GET';
    const method = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(methodText) ? (methodText as HttpMethod) : undefined;
    planRequest(c, {
      client: 'terraform-http',
      url,
      anchor: a.at,
      method,
      bodyReason: 'set request_body = jsonencode({ action = "…" }) by hand',
      setMethod: (to) => {
        const s = methodAttr?.str;
        if (!s || s.pieces.length !== 1 || s.pieces[0]!.kind !== 'text' || !s.pieces[0].origin.editable) return 'its method is not a literal the tool can see';
        const p = s.pieces[0];
        return [{ start: p.origin.start, end: p.origin.start + p.text.length, text: p.text === p.text.toLowerCase() ? to.toLowerCase() : to }];
      },
    });
  }
  for (const s of strings) {
    if (c.consumed.has(s.start)) continue;
    const pieces = resolve(s.pieces);
    const own = s.pieces.some((p) => p.kind === 'text' && p.text.length);
    if (!own || !c.bases.legacy.some((b) => pieces.some((p) => p.kind === 'text' && p.text.includes(b)) || flat(pieces).includes(b))) continue;
    planValue(c, pieces, { anchor: s.start });
  }
  for (const [s, e] of heredocLines) {
    const line = text.slice(s, e);
    const lead = line.search(/\S/);
    if (lead < 0 || !c.bases.legacy.some((b) => line.includes(b))) continue;
    planValue(c, [{ kind: 'text', text: line.slice(lead).replace(/\r$/, ''), origin: { start: s + lead, editable: true, literal: s + lead, local: false } }]);
  }
  if (mentionsGraphql(text)) scanGraphql(c, text, 0, text.length);
}

function flat(pieces: readonly TPiece[]): string {
  return pieces.map((p) => (p.kind === 'text' ? p.text : '\u0000')).join('');
}
