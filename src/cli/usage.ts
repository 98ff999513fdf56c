/** A command line the tool cannot run: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {}
