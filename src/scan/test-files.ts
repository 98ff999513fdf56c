/**
 * Test code: what a project's own suite holds (a `__tests__` or `test/` folder, `*.test.ts`, `*.spec.js`,
 * mocks). Its URLs stand for what the client under test sends, so they move with that client, never
 * on their own and never holding it back.
 */
const TEST_FOLDER = /(^|[\\/])(__tests__|__mocks__|tests?|spec|e2e)[\\/]/;
const TEST_FILE = /\.(test|spec|e2e)\.[cm]?[jt]sx?$/;

export const isTestFile = (file: string): boolean => TEST_FILE.test(file) || TEST_FOLDER.test(file);
