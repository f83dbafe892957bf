/**
 * A webpack loader for zod's modules in the workflow bundle (src/workflow-bundle.ts): it gives each module's code the
 * builtins it uses as local bindings, read once when the module is evaluated.
 *
 * Why: workflow code runs in a vm context, whose global object answers each lookup of a global name (`Object`,
 * `Array`, `Promise`…) through an interceptor, several times slower than reading a variable. zod looks such names up
 * for every value it checks, so a check cost about 4.5 times as much in the sandbox as in plain Node: validating a
 * continued run's carried input (about 48 KB, mostly transcript) took 0.68 ms of CPU in each rebuild of an evicted
 * run, and 0.15 ms with these bindings, as in Node (bench/RESULTS.md, "Replay: where an evicted decision's time goes").
 *
 * Why it changes nothing zod does: the bindings hold the very objects the global names hold. Every run shares one V8
 * context, and none of these names is given another value per run (the SDK replaces `Date`, `setTimeout` and the weak
 * references per run, which are not bound here; `Math.random` is replaced on the shared `Math`). zod is evaluated
 * once per worker (src/schemas/zod-per-worker.ts), so the bindings are read once per worker too. Modules that each
 * run instantiates anew (ours, the SDK's) would read them in every run; measured once, they gained nothing there.
 */
const NAMES = ['Object', 'Array', 'Promise', 'Set', 'Map', 'WeakMap', 'Number', 'String', 'Symbol', 'Reflect', 'JSON'].concat([
  'Error',
  'TypeError',
  'RegExp',
  'Math',
  'BigInt',
  'Boolean',
  'Function',
  'isNaN',
]);

const BINDINGS = `var ${NAMES.map((name) => `${name} = globalThis.${name}`).join(', ')};`;
const STRICT = /^\s*(["'])use strict\1;?/;

module.exports = function localBuiltins(source) {
  // After a "use strict" directive, which must stay first for the module to stay strict.
  const strict = STRICT.exec(source);
  return strict ? `${strict[0]}${BINDINGS}${source.slice(strict[0].length)}` : `${BINDINGS}\n${source}`;
};
