/**
 * Agents declared in a file (`HITL_AGENTS_FILE`): YAML or JSON (JSON is YAML) of the form `{agents: [...]}`, each
 * with the fields of `defineAgent`, the response format as a JSON Schema, and `mcpServers`. The whole file is
 * checked when the worker starts; every problem is reported at once, each with its file, line and field.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { AgentsFileError } from '../errors.js';
import { envReferences } from '../mcp/env-references.js';
import { McpServerConfig } from '../schemas/mcp-server-config.js';
import { agentProblems, defineAgent, type AgentDefinition, type AgentDefinitionInput, type AgentProblem } from './define-agent.js';

type AgentOption = 'beforeModel' | 'afterModel' | 'modelSelector' | 'interrupt' | 'toolErrors' | 'contextSchema';

/** The names the API and visibility queries accept. */
const AgentName = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'an agent name is 1-128 letters, digits, `_`, `.`, `:` or `-`');

const FileAgent = z.strictObject({
  name: AgentName,
  instructions: z.string().min(1),
  model: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  tools: z.array(z.string().min(1)).default([]),
  /** Checked by agentProblems, with the same words as agents in code. */
  approval: z.unknown().optional(),
  maxSteps: z.number().int().positive().max(100_000).optional(),
  /** A JSON Schema of `type: object`: the final answer must match it. */
  responseFormat: z.record(z.string(), z.unknown()).optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  /** LangGraph's agent options, as in code (the context schema as a JSON Schema); checked by agentProblems. */
  beforeModel: z.unknown().optional(),
  afterModel: z.unknown().optional(),
  modelSelector: z.unknown().optional(),
  interrupt: z.unknown().optional(),
  toolErrors: z.record(z.string(), z.unknown()).optional(),
  contextSchema: z.record(z.string(), z.unknown()).optional(),
});

const AgentsFileSchema = z.strictObject({ agents: z.array(z.unknown()) });

/** Problems shown in one error; the count of the rest follows. */
const MAX_SHOWN = 20;

/**
 * @param known names of agents defined in code: a file may not redefine them.
 * @param env when given, every `${NAME}` an MCP server configuration names must be set in it.
 */
export function loadAgentsFile(file: string, options: { known?: readonly string[]; env?: NodeJS.ProcessEnv } = {}): AgentDefinition[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AgentsFileError(`HITL_AGENTS_FILE: cannot read ${file}: ${(err as Error).message}`);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    throw new AgentsFileError(`${file} is not valid YAML or JSON:\n${doc.errors.map((e) => `  ${e.message.split('\n')[0]}`).join('\n')}`);
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    // Aliases of aliases (a "billion laughs") are refused as they expand, past the parser's count of them.
    throw new AgentsFileError(`${file} is not valid YAML or JSON:\n  ${(err as Error).message}`);
  }
  const problems: AgentProblem[] = [];
  const agents = checkAgents(value, problems, options).map((agent) => ({ ...agent, declaredIn: file }));
  if (problems.length) {
    const shown = problems.slice(0, MAX_SHOWN).map((p) => `  ${where(file, doc, lines, p.path)}: ${p.message}`);
    if (problems.length > MAX_SHOWN) shown.push(`  …and ${problems.length - MAX_SHOWN} more`);
    throw new AgentsFileError(`${file} has ${problems.length} problem(s):\n${shown.join('\n')}`);
  }
  return agents;
}

function checkAgents(
  value: unknown,
  problems: AgentProblem[],
  options: { known?: readonly string[]; env?: NodeJS.ProcessEnv },
): AgentDefinition[] {
  const file = AgentsFileSchema.safeParse(value);
  if (!file.success) {
    problems.push(...issues(file.error, []));
    return [];
  }
  const seen = new Set<string>();
  const agents: AgentDefinition[] = [];
  file.data.agents.forEach((raw, i) => {
    const at = (path: (string | number)[]) => ['agents', i, ...path];
    const parsed = FileAgent.safeParse(raw);
    const found = parsed.success ? [] : issues(parsed.error, []);
    const {
      responseFormat,
      approval,
      mcpServers,
      name,
      instructions = '',
      tools = [],
      ...rest
    } = parsed.success ? parsed.data : fieldsThatParse(raw);
    // Each option's shape is checked by agentProblems below, with the words agents in code get.
    const input = {
      ...(rest as typeof rest & Pick<AgentDefinitionInput, AgentOption>),
      name: name ?? '',
      instructions,
      tools,
      ...(approval !== undefined && { approval: approval as never }),
      ...(mcpServers && { mcpServers: mcpServers as Record<string, McpServerConfig> }),
      ...(responseFormat && { responseFormat }),
    };
    found.push(...agentProblems(input), ...envProblems(mcpServers, options.env));
    if (name !== undefined) {
      if (seen.has(name)) found.push({ path: ['name'], message: `another agent in this file is named "${name}"` });
      if (options.known?.includes(name)) found.push({ path: ['name'], message: `"${name}" is an agent defined in code` });
      seen.add(name);
    }
    if (found.length) return void problems.push(...found.map((p) => ({ ...p, path: at(p.path) })));
    agents.push(defineAgent(input));
  });
  return agents;
}

/**
 * The fields of an agent that parse each alone, when the whole does not, to be checked further: one bad field (or
 * an unknown key) hides no problem of the others. What is checked against the agent's tools waits until they parse.
 */
function fieldsThatParse(raw: unknown): Partial<z.infer<typeof FileAgent>> {
  if (typeof raw !== 'object' || raw === null) return {};
  const fields: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(FileAgent.shape)) {
    const parsed = schema.safeParse((raw as Record<string, unknown>)[key]);
    if (parsed.success && parsed.data !== undefined) fields[key] = parsed.data;
  }
  if (fields.tools === undefined) {
    delete fields.toolErrors;
    delete fields.interrupt;
  }
  return fields;
}

/** Every `${NAME}` a server configuration names must be set where the worker runs. */
function envProblems(servers: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv | undefined): AgentProblem[] {
  if (!servers || !env) return [];
  return Object.entries(servers).flatMap(([name, raw]) => {
    const config = McpServerConfig.safeParse(raw);
    if (!config.success) return [];
    return envReferences(config.data)
      .filter((ref) => env[ref.name] === undefined)
      .map((ref) => ({ path: ['mcpServers', name, ...ref.path], message: `names the environment variable ${ref.name}, which is not set` }));
  });
}

function issues(error: z.ZodError, prefix: (string | number)[]): AgentProblem[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    message: issue.message,
  }));
}

/** `agents.yaml:12 agents.0.tools.2`: the line of the deepest node of the path the file has. */
function where(file: string, doc: Document, lines: LineCounter, path: (string | number)[]): string {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    const offset = (node as { range?: [number, number, number] } | undefined)?.range?.[0];
    if (typeof offset === 'number') return `${file}:${lines.linePos(offset).line} ${path.join('.') || '(file)'}`;
  }
  return `${file} ${path.join('.')}`;
}
