// jscodeshift transform that changes nothing: parse and print every file. Its run time is the floor
// any jscodeshift/recast codemod pays for the same files (bench/run.js compares v2-migrate to it).
// Parser family as v2-migrate's (@babel/parser): tsx for TypeScript files, babel for JavaScript.
'use strict';

const TS = /\.(ts|tsx|mts|cts)$/i;

module.exports = function noop(file, api) {
  const j = TS.test(file.path) ? api.jscodeshift.withParser('tsx') : api.jscodeshift.withParser('babel');
  return j(file.source).toSource();
};
