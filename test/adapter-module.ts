import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { adapterName, adapterSource, needsAdapter, type AdapterOptions } from '../src/adapters/generate.js';
import { BODY_MAPPINGS, type BodyOperationId } from '../src/map/bodies.js';
import { tempDir } from './helpers.js';

/** The generated JavaScript adapters, imported as a user's code imports them, for the adapter tests. */
export type Adapter = (body: unknown) => unknown;

export const OPS = (Object.keys(BODY_MAPPINGS) as BodyOperationId[]).sort();
export const ADAPTED = OPS.filter(needsAdapter);

const loaded = new Map<string, Promise<Record<string, Adapter>>>();

/** The adapters of every operation that needs one, generated with `options` into a temp file. */
export function loadAdapters(options: Omit<AdapterOptions, 'language'>): Promise<Record<string, Adapter>> {
  const key = JSON.stringify(options);
  let module = loaded.get(key);
  if (!module) {
    const file = path.join(tempDir('v2-migrate-adapters-'), 'runpod-v2-adapters.mjs');
    fs.writeFileSync(file, adapterSource(ADAPTED, { ...options, language: 'js' }));
    module = import(pathToFileURL(file).href) as Promise<Record<string, Adapter>>;
    loaded.set(key, module);
  }
  return module;
}

export async function loadAdapter(op: BodyOperationId, options: Omit<AdapterOptions, 'language'>): Promise<Adapter> {
  const adapter = (await loadAdapters(options))[adapterName(op)];
  if (!adapter) throw new Error(`no adapter ${adapterName(op)}`);
  return adapter;
}

/** The error message an adapter throws, or null when it returns. */
export function thrown(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
