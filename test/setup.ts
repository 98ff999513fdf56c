// Runs before every test file (vitest.config.ts setupFiles): temp folders the file made are removed after it.
import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);
