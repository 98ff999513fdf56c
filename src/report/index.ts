import { jsonReporter } from './json.js';
import { textReporter } from './text.js';
import type { Reporter } from './types.js';

export const REPORTERS: Record<string, Reporter> = {
  text: textReporter,
  json: jsonReporter,
};

export const FORMATS = Object.keys(REPORTERS);
