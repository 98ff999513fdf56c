/**
 * The `default` of a switch over a closed union (`switch (t.kind)`): every member has its case, so
 * `value` is `never` here, and a member added to the union without one is a compile error. Never
 * reached at run time.
 */
export function unhandled(value: never): never {
  throw new Error(`v2-migrate: unhandled case ${JSON.stringify(value)}`);
}
