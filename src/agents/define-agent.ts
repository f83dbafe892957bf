/**
 * An agent is plain data: instructions, model, tools by name, approval policy, step limit, output format, the MCP
 * servers whose tools it may use, and LangGraph's agent options (model hooks, a model selector, breakpoints,
 * tool-error handling, a typed context). Agents are defined in code (`defineAgent`) or in a file (agents-file.ts);
 * both are checked by `agentProblems`, so the same mistakes fail the same way at startup, never mid-run.
 */
import type { z } from 'zod';
import type { Interrupts, ModelHookRef, ModelSelectorRef } from '../schemas/agent-options.js';
import { ApprovalPolicy, type ApprovalPolicyInput } from '../schemas/approval-policy.js';
import { McpServerConfig, type McpServerConfigInput } from '../schemas/mcp-server-config.js';
import type { OnToolError } from '../schemas/tool-errors.js';
import { jsonStringBytes } from '../bounds/truncate.js';
import { LIMITS } from '../contract/limits.js';
import { toolSpecs } from '../tools/registry.js';
import { isPattern, matchesPattern, MCP_SERVER_NAME, mcpServerOf } from '../tools/tool-names.js';
import { namingProblems } from '../policy/approver-entries.js';
import { gatesOf, unreachableApprovals } from '../policy/reachable-approvals.js';
import { agentOptionProblems, type AgentProblem } from './agent-options-check.js';
import { policyOptionProblems } from './policy-option-check.js';
import type { ContextSchema } from './context-schema.js';
import { responseFormatProblems, type ResponseFormat } from './response-format.js';

export interface AgentDefinitionInput {
  name: string;
  /** The system prompt. */
  instructions: string;
  /** @default `OPENAI_MODEL`, else 'gpt-4.1' */
  model?: string;
  /** OpenAI-compatible endpoint for this agent. @default `OPENAI_BASE_URL` */
  baseURL?: string;
  /**
   * Tools by name: ours (src/tools/registry.ts) and MCP tools as `<server>__<tool>`. A `*` stands for any run of
   * characters: `fs__*` is every tool of the `fs` server, `read_*` every tool of ours whose name starts so.
   */
  tools: string[];
  /** MCP servers by name (letters, digits, `-`, single `_`): a command (stdio) or a URL (streamable HTTP). */
  mcpServers?: Record<string, McpServerConfigInput>;
  /** Which calls wait for a human; keys are tool names or patterns. @default nothing is gated but what MCP annotations mark destructive */
  approval?: ApprovalPolicyInput;
  /** @default 25 (LangGraph's recursion limit) */
  maxSteps?: number;
  /** The final answer must be JSON matching this schema (zod, or JSON Schema); the model gets one corrective retry. */
  responseFormat?: ResponseFormat;
  /** Every decision must carry a signed token the run verifies. @default HITL_REQUIRE_SIGNED_DECISIONS */
  requireSignedDecisions?: boolean;
  /** Rewrites what the model sees before each call, e.g. `{hook: 'trimMessages', options: {maxTokens: 4000}}`. */
  beforeModel?: ModelHookRef;
  /** Judges each reply: accept, replace, retry with a reason, or stop the run. */
  afterModel?: ModelHookRef;
  /** Chooses the model (and endpoint) for each call, e.g. `{selector: 'bySize', options: {…}}`. @default always `model` */
  modelSelector?: ModelSelectorRef;
  /** Breakpoints: pause for a human before or after the model, or before tools run. */
  interrupt?: z.input<typeof Interrupts>;
  /** Per tool: what a failure after its last retry does, over the tool's own `onError`. */
  toolErrors?: Record<string, OnToolError>;
  /** The run's `context` must match it; tools, hooks and conditions receive the checked value. */
  contextSchema?: ContextSchema;
}

export interface AgentDefinition extends Omit<AgentDefinitionInput, 'approval' | 'maxSteps' | 'mcpServers'> {
  mcpServers: Record<string, McpServerConfig>;
  approval: ApprovalPolicy;
  maxSteps: number;
  /** The agents file it comes from; absent for agents defined in code. */
  declaredIn?: string;
}

export const DEFAULT_MAX_STEPS = 25;

export type { AgentProblem };

/**
 * Everything wrong with a definition (the instructions' size, tools, MCP servers, policy and the predicates and
 * reviewers it names, options, response format); empty if sound.
 */
export function agentProblems(input: AgentDefinitionInput): AgentProblem[] {
  const problems: AgentProblem[] = [];
  const instructionsBytes = jsonStringBytes(input.instructions);
  if (instructionsBytes > LIMITS.instructionsBytes) {
    problems.push({
      path: ['instructions'],
      message: `${instructionsBytes} bytes; at most ${LIMITS.instructionsBytes} (LIMITS.instructionsBytes: every model call carries them)`,
    });
  }
  const servers = Object.keys(input.mcpServers ?? {});
  for (const [name, config] of Object.entries(input.mcpServers ?? {})) {
    if (!MCP_SERVER_NAME.test(name) || name.length > 32) {
      problems.push({
        path: ['mcpServers', name],
        message: 'a server name is 1-32 letters, digits, `-` or single `_`, and does not end with `_`',
      });
    }
    const parsed = McpServerConfig.safeParse(config);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ path: ['mcpServers', name, ...issue.path.map(pathPart)], message: issue.message });
    }
  }
  input.tools.forEach((entry, i) => {
    const server = mcpServerOf(entry);
    if (server !== undefined && servers.includes(server)) return;
    const known = isPattern(entry) ? Object.keys(toolSpecs).some((name) => matchesPattern(entry, name)) : Object.hasOwn(toolSpecs, entry);
    if (!known) {
      const hint = server !== undefined ? ` (no MCP server "${server}" is declared in mcpServers)` : '';
      problems.push({ path: ['tools', i], message: `"${entry}" names no tool in src/tools/registry.ts${hint}` });
    }
  });
  const policy = ApprovalPolicy.safeParse(input.approval ?? {});
  if (!policy.success) {
    for (const issue of policy.error.issues) problems.push({ path: ['approval', ...issue.path.map(pathPart)], message: issue.message });
  }
  problems.push(...policyOptionProblems(input.approval).map((p) => ({ ...p, path: ['approval', ...p.path] })));
  problems.push(...namingProblems({ approval: policy.data, interrupt: input.interrupt }));
  if (policy.success) {
    const unreachable = unreachableApprovals(policy.data, undefined, gatesOf(policy.data, input.tools));
    problems.push(...unreachable.map((p) => ({ ...p, path: ['approval', ...p.path] })));
  }
  problems.push(...agentOptionProblems(input));
  problems.push(...responseFormatProblems(input.responseFormat));
  return problems;
}

function pathPart(part: PropertyKey): string | number {
  return typeof part === 'number' ? part : String(part);
}

/** Validates the definition when the module loads, so a typo in a policy fails at startup, not mid-run. */
export function defineAgent(input: AgentDefinitionInput): AgentDefinition {
  const problems = agentProblems(input);
  if (problems.length) {
    throw new Error(
      `Agent "${input.name}" is invalid:\n${problems.map((p) => `  ${p.path.join('.') || '(agent)'}: ${p.message}`).join('\n')}`,
    );
  }
  return {
    ...input,
    mcpServers: Object.fromEntries(Object.entries(input.mcpServers ?? {}).map(([name, config]) => [name, McpServerConfig.parse(config)])),
    approval: ApprovalPolicy.parse(input.approval ?? {}),
    maxSteps: input.maxSteps ?? DEFAULT_MAX_STEPS,
  };
}

export type { ResponseFormat };

function picksMcp(agent: Pick<AgentDefinition, 'mcpServers'>, entry: string): boolean {
  const server = mcpServerOf(entry);
  return server !== undefined && Object.hasOwn(agent.mcpServers, server);
}

/** The agent's tools of ours, in the order given, patterns expanded in the registry's order. */
export function ourTools(agent: Pick<AgentDefinition, 'tools' | 'mcpServers'>): string[] {
  const entries = agent.tools.filter((entry) => !picksMcp(agent, entry));
  return [...new Set(entries.flatMap((entry) => Object.keys(toolSpecs).filter((name) => matchesPattern(entry, name))))];
}

/** The entries of `tools` that pick MCP tools (`<server>__<name or pattern>`), matched when a run lists them. */
export function mcpToolPatterns(agent: Pick<AgentDefinition, 'tools' | 'mcpServers'>): string[] {
  return agent.tools.filter((entry) => picksMcp(agent, entry));
}
