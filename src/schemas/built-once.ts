/**
 * Schemas built once per worker instead of once per run. The SDK runs every workflow in one reusable V8 context, but
 * evaluates each module of the bundle anew for every run, and for every rebuild of an evicted run from history; our
 * zod schema constructions were most of that work (bench/RESULTS.md, "Deciding a run evicted from the worker's
 * cache"). This module is preloaded (PRELOADED_MODULES in src/workflow-bundle.ts), so one instance of it serves
 * every run of the worker: the first run to evaluate a schema module builds its schemas, and every later run gets
 * the same ones. zod itself is kept here the same way (zod-per-worker.ts).
 *
 * Why that is safe: a schema is immutable configuration, and what zod caches in it (compiled parsers, lazily
 * computed internals) is a pure function of the schema, the same whichever run fills it in. What a parse returns is
 * new, with one exception: a `.default()` or `.catch()` value is handed out as given (a default shallowly copied), so
 * each such value is a primitive, an empty object or array, or a function that makes a new one every time
 * (test/static/built-once.test.ts checks). So a run behaves the same, and a replay decides the same, whether it built the schemas or found them.
 * Builders must stay pure: the determinism check keeps the clock, randomness and I/O out of them like all workflow
 * code, and reading per-run state in one (`workflowInfo()`, `patched()`, a module-level `let`) would fix the first
 * run's value for every run of the worker; a refinement they hold must not keep state of its own.
 *
 * Two consequences. The shared schemas parse with the one zod of the worker (zod-per-worker.ts), so a run's change
 * to zod's global state would apply to every run after it: workflow code never calls `z.config()`, never registers
 * a schema or gives one an id, and extends no zod prototype (src/dev/determinism-check.ts refuses each). A schema's `.describe()` text
 * sits in that zod's global registry, keyed weakly by the schema, so every run finds it. And the first run's module
 * instances stay alive as long as the worker, since its schemas' checks are its functions: one run's modules,
 * however many runs follow.
 *
 * Why not preload the schema modules themselves: the SDK deep-freezes what a preloaded module exports, and a frozen
 * zod schema throws the first time it fills in a lazy internal. The cache below is reachable from no export, so it
 * is not frozen: the SDK freezes the function, not what it closes over.
 *
 * Outside workflows (the API, the CLI) this is a module-level cache in one process, the same as a module constant.
 * test/static/built-once.test.ts holds the keys unique and every top-level schema of the workflows' modules built
 * here; test/built-once.test.ts shows the sharing on a real worker.
 */
const built = new Map<string, unknown>();

/** The value `build` returns the first time `key` is asked for in this worker (or process). Keys are unique per definition. */
export function builtOnce<T>(key: string, build: () => T): T {
  if (built.has(key)) return built.get(key) as T;
  const value = build();
  built.set(key, value);
  return value;
}
