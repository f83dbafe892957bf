/**
 * Checks an agent's LangGraph-style options when it is defined, so a misspelt hook, selector or breakpoint fails
 * at startup with the field named, never in a running run. Activity hooks are registered on the worker and are
 * checked when a run starts.
 */
import { z } from 'zod';
import { afterModelHooks, beforeModelHooks } from '../hooks/model-hooks.js';
import { modelSelectors } from '../hooks/model-selectors.js';
import type { Named } from '../hooks/hook-types.js';
import { hookUse, Interrupts, ModelHookRef, ModelSelectorRef, selectorUse } from '../schemas/agent-options.js';
import { OnToolError } from '../schemas/tool-errors.js';
import { contextSchemaProblems, type ContextSchema } from './context-schema.js';

export interface AgentOptionsInput {
  tools: string[];
  toolErrors?: Record<string, unknown>;
  beforeModel?: unknown;
  afterModel?: unknown;
  modelSelector?: unknown;
  interrupt?: unknown;
  contextSchema?: ContextSchema;
}

/** One thing wrong with an agent's definition. */
export interface AgentProblem {
  /** Where in the definition, e.g. `['tools', 2]`. */
  path: (string | number)[];
  message: string;
}

/** Every problem with the options; empty when they are sound. */
export function agentOptionProblems(input: AgentOptionsInput): AgentProblem[] {
  const problems: AgentProblem[] = [];
  const issues = (path: string[], error: z.ZodError) =>
    problems.push(...error.issues.map((i) => ({ path: [...path, ...i.path.map(String)], message: i.message })));
  for (const [field, registry] of [
    ['beforeModel', beforeModelHooks],
    ['afterModel', afterModelHooks],
  ] as const) {
    if (input[field] === undefined) continue;
    const ref = ModelHookRef.safeParse(input[field]);
    if (!ref.success) issues([field], ref.error);
    else {
      const use = hookUse(ref.data);
      if (use.kind === 'workflow') checkNamed(problems, field, registry, use.name, use.options, 'src/hooks/model-hooks.ts');
    }
  }
  if (input.modelSelector !== undefined) {
    const ref = ModelSelectorRef.safeParse(input.modelSelector);
    if (!ref.success) issues(['modelSelector'], ref.error);
    else {
      const use = selectorUse(ref.data);
      checkNamed(problems, 'modelSelector', modelSelectors, use.name, use.options, 'src/hooks/model-selectors.ts');
    }
  }
  if (input.interrupt !== undefined) {
    const interrupt = Interrupts.safeParse(input.interrupt);
    if (!interrupt.success) issues(['interrupt'], interrupt.error);
    const before = interrupt.success ? interrupt.data.beforeTools : undefined;
    for (const name of typeof before === 'object' ? (before.tools ?? []) : []) {
      if (!input.tools.includes(name))
        problems.push({ path: ['interrupt', 'beforeTools', 'tools'], message: `"${name}" is not one of this agent's tools` });
    }
  }
  for (const [name, rule] of Object.entries(input.toolErrors ?? {})) {
    if (!input.tools.includes(name)) problems.push({ path: ['toolErrors', name], message: "not one of this agent's tools" });
    const parsed = OnToolError.safeParse(rule);
    if (!parsed.success) issues(['toolErrors', name], parsed.error);
  }
  if (input.contextSchema !== undefined)
    problems.push(...contextSchemaProblems(input.contextSchema).map((fault) => ({ ...fault, path: ['contextSchema', ...fault.path] })));
  return problems;
}

function checkNamed(
  problems: AgentProblem[],
  field: string,
  registry: Readonly<Record<string, Named<never, unknown>>>,
  name: string,
  options: unknown,
  where: string,
): void {
  const entry = Object.hasOwn(registry, name) ? registry[name] : undefined;
  if (!entry) {
    const what = field === 'modelSelector' ? 'selector' : 'hook';
    problems.push({ path: [field], message: `no ${what} "${name}" in ${where} (known: ${Object.keys(registry).join(', ')})` });
    return;
  }
  const parsed = entry.options.safeParse(options ?? {});
  if (!parsed.success)
    problems.push(...parsed.error.issues.map((i) => ({ path: [field, 'options', ...i.path.map(String)], message: i.message })));
}
