import fs from 'node:fs';
import type { Settings } from '../config.js';
import type { BodyOperationId } from '../map/bodies.js';
import { adapterSource } from '../adapters/generate.js';
import { isGeneratedAdapter } from '../adapters/adapter-file.js';
import type { AdapterNeed } from '../js/body/adapter.js';
import { encode } from './files.js';

/** A generated adapter file as the run reports and writes it (created, or regenerated with more adapters). */
export interface AdapterFileResult {
  absPath: string;
  changed: true;
  before: string;
  after: string;
  bytes: Buffer;
}

/** The adapters an existing generated file already exports (kept: earlier runs' call sites use them). */
function exportedOps(text: string): BodyOperationId[] {
  return [...text.matchAll(/^export (?:function|const) toV2(\w+)Body\b/gm)].map((m) => m[1] as BodyOperationId);
}

/** The run's generated adapter files: the operations every importer needs, gathered across components. */
export class AdapterFiles {
  private readonly files = new Map<string, { need: AdapterNeed; ops: Set<BodyOperationId>; settings: Settings }>();
  /** Adapter files' places held by a file v2-migrate did not generate. */
  private readonly foreign = new Set<string>();

  add(need: AdapterNeed, settings: Settings): void {
    const entry = this.files.get(need.file) ?? { need, ops: new Set<BodyOperationId>(), settings };
    for (const op of need.ops) entry.ops.add(op);
    this.files.set(need.file, entry);
  }

  /** Each file whose text changes: created, or regenerated with the union of its old and new adapters. */
  write(): AdapterFileResult[] {
    const out: AdapterFileResult[] = [];
    for (const [file, { need, ops, settings }] of [...this.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      let before = '';
      try {
        before = fs.readFileSync(file, 'utf8');
      } catch {
        // Not there yet: created.
      }
      const all = [...new Set([...ops, ...exportedOps(before)])].sort();
      const after = adapterSource(all, { language: need.language, gpuPools: settings.gpuPools, preserveV1Defaults: settings.preserveV1Defaults });
      if (before && !isGeneratedAdapter(before)) this.foreign.add(file);
      if (after !== before) out.push({ absPath: file, changed: true, before, after, bytes: encode(after, false) });
    }
    return out;
  }

  /** Why the run may not write `file`: an adapter file's place that holds a file of the project. */
  refusal(file: string): string | null {
    return this.foreign.has(file) ? 'a file v2-migrate did not generate is where its adapter file goes, and it is never replaced by one (rename it, or set adapters.file in the config)' : null;
  }
}
