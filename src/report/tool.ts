import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOL_NAME = 'v2-migrate';
export const INFORMATION_URI = 'https://www.npmjs.com/package/v2-migrate';

let cached: string | null = null;

/** The package version, from the nearest package.json named v2-migrate above this module (src/, dist/src/ or dist/lib/). */
export function toolVersion(): string {
  if (cached) return cached;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === TOOL_NAME && pkg.version) return (cached = pkg.version);
    }
    if (path.dirname(dir) === dir) return (cached = '0.0.0');
  }
}
