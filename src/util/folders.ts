import fs from 'node:fs';
import path from 'node:path';

/** What a folder's direct entries start with: the folder and a separator (a root already ends with one). */
export const folderPrefix = (dir: string): string => (dir.endsWith(path.sep) ? dir : dir + path.sep);

/** Whether `file` is directly in the folder `prefix` starts (no string is made: this runs once per file of a tree). */
export const directlyIn = (file: string, prefix: string): boolean => file.startsWith(prefix) && file.indexOf(path.sep, prefix.length) < 0;

/** Answers "does folder `dir` hold an entry `name`?" (from a walk's listings where it has them). */
export type HasEntry = (dir: string, name: string) => boolean;

/** The file system's answer. */
export const onDisk: HasEntry = (dir, name) => fs.existsSync(path.join(dir, name));
