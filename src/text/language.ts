/** Which text-engine language a file is, by its name. */
export type Language = 'python' | 'shell' | 'markdown' | 'yaml' | 'json' | 'toml' | 'env' | 'http' | 'hcl' | 'dockerfile';

const BY_EXTENSION: Record<string, Language> = {
  '.py': 'python',
  '.sh': 'shell',
  '.bash': 'shell',
  '.zsh': 'shell',
  '.md': 'markdown',
  '.mdx': 'markdown',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'json',
  '.jsonc': 'json',
  '.toml': 'toml',
  '.http': 'http',
  '.rest': 'http',
  '.tf': 'hcl',
  '.tfvars': 'hcl',
  '.env': 'env',
  '.dockerfile': 'dockerfile',
};

export function languageOf(file: string): Language | null {
  const base = file.split(/[\\/]/).pop() ?? file;
  if (base === 'Dockerfile' || base === 'Containerfile' || base.startsWith('Dockerfile.') || base.startsWith('Dockerfile-')) return 'dockerfile';
  if (base === '.env' || base.startsWith('.env.')) return 'env';
  const dot = base.lastIndexOf('.');
  if (dot <= 0 && !base.startsWith('.')) return null;
  const ext = base.slice(dot).toLowerCase();
  return BY_EXTENSION[ext] ?? null;
}

/** Fenced code block info strings (Markdown) → the language their content is scanned as. */
export function fenceLanguage(info: string): Language | 'js' | 'console' | 'pycon' | 'graphql' | null {
  const lang = info.trim().split(/[\s{,]/)[0]!.toLowerCase();
  if (['sh', 'bash', 'shell', 'zsh', 'curl'].includes(lang)) return 'shell';
  if (['console', 'shell-session', 'shellsession', 'terminal'].includes(lang)) return 'console';
  if (['python', 'py', 'python3'].includes(lang)) return 'python';
  if (['pycon', 'python-repl'].includes(lang)) return 'pycon';
  if (['js', 'javascript', 'jsx', 'ts', 'typescript', 'tsx', 'mjs', 'cjs', 'node'].includes(lang)) return 'js';
  if (['yaml', 'yml'].includes(lang)) return 'yaml';
  if (['json', 'jsonc', 'json5'].includes(lang)) return 'json';
  if (['toml'].includes(lang)) return 'toml';
  if (['http', 'rest'].includes(lang)) return 'http';
  if (['hcl', 'terraform', 'tf'].includes(lang)) return 'hcl';
  if (['dockerfile', 'docker'].includes(lang)) return 'dockerfile';
  if (['dotenv', 'env', 'ini'].includes(lang)) return 'env';
  if (['graphql', 'gql'].includes(lang)) return 'graphql';
  return null;
}

/** The text engine handles this file (by its name). Kept here, free of the scanners, for discovery. */
export function isTextEngineFile(file: string): boolean {
  return languageOf(file) !== null;
}
