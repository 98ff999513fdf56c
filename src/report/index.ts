import type { Reporter } from './types.js';

/** Each report format's module, loaded only for the format asked for. */
const LOADERS: Record<string, () => Promise<Reporter>> = {
  text: async () => (await import('./text.js')).textReporter,
  json: async () => (await import('./json.js')).jsonReporter,
  sarif: async () => (await import('./sarif.js')).sarifReporter,
  github: async () => (await import('./github.js')).githubReporter,
  markdown: async () => (await import('./markdown.js')).markdownReporter,
};

export const FORMATS = Object.keys(LOADERS);

export const reporterFor = (format: string): Promise<Reporter> => LOADERS[format]!();
