/**
 * One zod per worker: in the workflow bundle, `import { z } from 'zod'` resolves to this module (the alias in
 * src/workflow-bundle.ts), which hands every run the zod the worker's first run evaluated. Every run, and every
 * rebuild of an evicted run from history, instantiates each module of the bundle anew; zod's own modules were the
 * largest part of that left after the schemas were shared (bench/RESULTS.md, "Deciding a run evicted from the
 * worker's cache").
 *
 * Why that costs no isolation we had: the shared schemas (built-once.ts) already parse with the zod of the run that
 * built them, so a run's zod config reached later runs before this. What one zod adds is that zod's global registry
 * and its prototypes are shared too. Workflow code changes none of it: it never calls `z.config()`, registers no
 * schema, gives none an id, and extends no prototype (the determinism check refuses each), so a run behaves the
 * same, and a replay decides the same, whichever runs came before it on the worker.
 *
 * Why zod's CommonJS build: webpack bundles it as a module of its own, so it is evaluated only when the first run
 * requires it. Its ES build is concatenated into the modules that import it (concatenateModules in
 * workflow-bundle.ts), and every run would define its namespaces again. Why not preload it: the SDK deep-freezes
 * what a preloaded module exports, and a frozen zod throws (workflow-bundle.ts); kept in built-once.ts's cache, it
 * is not frozen.
 */
import { builtOnce } from './built-once.js';

// webpack's synchronous require of a module it bundles (the bundle aliases 'zod/index.cjs' to zod's CommonJS build):
// a static import would evaluate zod in every run.
export const z = builtOnce('schemas/zod-per-worker.z', () => (require('zod/index.cjs') as typeof import('zod')).z);
