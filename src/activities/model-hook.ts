/**
 * Model hooks that need I/O run here, as an activity: looked up by name among the worker's `modelHooks`. The
 * answer is recorded in history like any activity result, so a replay never calls the hook again; the workflow
 * checks it (src/workflows/model-hooks.ts).
 */
import { ApplicationFailure } from '@temporalio/common';
import { ModelHookError } from '../errors.js';
import type { AfterModelInput, BeforeModelInput } from '../hooks/hook-types.js';
import type { ActivityDeps } from './activity-deps.js';

export type RunModelHookInput =
  | { kind: 'beforeModel'; name: string; options?: unknown; input: BeforeModelInput }
  | { kind: 'afterModel'; name: string; options?: unknown; input: AfterModelInput };

export function createRunModelHook({ modelHooks }: ActivityDeps) {
  return {
    async runModelHook(hook: RunModelHookInput): Promise<unknown> {
      const registry = modelHooks?.[hook.kind] ?? {};
      const run = Object.hasOwn(registry, hook.name) ? registry[hook.name] : undefined;
      // Another worker without it may get the retry; after the last one the run fails with this.
      if (!run)
        throw new ModelHookError(hook.kind, hook.name, 'no activity hook of that name is registered on this worker').toFailure({
          nonRetryable: false,
        });
      try {
        return await (run as (input: unknown, options: unknown) => unknown)(hook.input, hook.options);
      } catch (err) {
        if (err instanceof ApplicationFailure) throw err;
        throw ApplicationFailure.create({
          type: 'ModelHookError',
          message: `The ${hook.kind} hook "${hook.name}" failed: ${err instanceof Error ? err.message : String(err)}`,
        });
      }
    },
  };
}
