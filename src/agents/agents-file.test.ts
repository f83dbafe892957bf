import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentsFileError } from '../errors.js';
import { loadAgentsFile } from './agents-file.js';
import { loadAgents } from './registry.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-agents-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const write = (text: string, ext = 'yaml') => {
  const file = path.join(dir, `agents-${++n}.${ext}`);
  writeFileSync(file, text);
  return file;
};
const problemsOf = (file: string, options?: Parameters<typeof loadAgentsFile>[1]) => {
  try {
    loadAgentsFile(file, options);
  } catch (err) {
    expect(err).toBeInstanceOf(AgentsFileError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
};

const GOOD = `agents:
  - name: notes
    instructions: You keep notes.
    tools: [read_data, fs__read_*, fs__write_file]
    maxSteps: 8
    approval:
      tools:
        fs__write_file: { approvers: [ops] }
    responseFormat:
      type: object
      properties: { summary: { type: string } }
      required: [summary]
    mcpServers:
      fs:
        command: npx
        args: [-y, "@modelcontextprotocol/server-filesystem", ./notes]
      web:
        url: http://localhost:3001/mcp
        headers: { Authorization: "Bearer \${NOTES_TOKEN}" }
        timeout: 30s
`;

describe('agents file', () => {
  it('loads agents with the fields of defineAgent, MCP servers and a JSON Schema response format', () => {
    const [agent] = loadAgentsFile(write(GOOD), { env: { NOTES_TOKEN: 't' } });
    expect(agent).toMatchObject({
      name: 'notes',
      tools: ['read_data', 'fs__read_*', 'fs__write_file'],
      maxSteps: 8,
      approval: { tools: { fs__write_file: { approvers: ['ops'] } }, default: false },
      mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', './notes'] }, web: { timeout: '30s' } },
      responseFormat: { type: 'object', required: ['summary'] },
    });
    expect(agent!.declaredIn).toContain('agents-');
  });

  it('reads JSON too, and sits beside the agents in code', () => {
    const file = write(JSON.stringify({ agents: [{ name: 'jsonagent', instructions: 'x', tools: ['read_data'] }] }), 'json');
    const registry = loadAgents({ HITL_AGENTS_FILE: file });
    expect(Object.keys(registry)).toEqual(['demo', 'coordinator', 'researcher', 'jsonagent']);
  });

  it('names the line and the field of every problem', () => {
    const message = problemsOf(
      write(`agents:
  - name: a
    instructions: x
    tools: [read_data, fs__read_text_file, nope]
    approval:
      tools:
        read_data: { timeout: soon }
  - name: b
    instructions: y
    tools: []
    mcpServers:
      web: { url: http://x/mcp, headers: { A: "\${MISSING_VAR}" } }
      bad__name: { command: x }
      odd: { command: x, port: 3 }
    responseFormat: { type: string }
    colour: blue
  - name: c
    instructions: z
    tools: [write_file]
    approval: { tools: { write_file: { approvers: ['group: editors'] } } }
    interrupt: { beforeTools: { approvers: ['user:'] } }
`),
      { env: {} },
    );
    expect(message).toContain(
      ':4 agents.0.tools.1: "fs__read_text_file" names no tool in src/tools/registry.ts (no MCP server "fs" is declared in mcpServers)',
    );
    expect(message).toContain(':4 agents.0.tools.2: "nope" names no tool');
    expect(message).toContain(":7 agents.0.approval.tools.read_data.timeout: expected a positive duration like '30s', '2h' or '3d'");
    expect(message).toMatch(/:8 agents\.1: Unrecognized key: "colour"/);
    expect(message).toMatch(/:\d+ agents\.2\.approval\.tools\.write_file\.approvers\.0: "group: editors" names no one/);
    expect(message).toMatch(/:\d+ agents\.2\.interrupt\.beforeTools\.approvers\.0: "user:" names no one/);
  });

  it('says what is wrong with breakpoints of the wrong shape, instead of failing on them', () => {
    const message = problemsOf(
      write(`agents:
  - name: d
    instructions: x
    tools: [write_file]
    interrupt: { beforeTools: null, afterModel: { approvers: ops } }
`),
    );
    expect(message).toMatch(/:\d+ agents\.0\.interrupt\.beforeTools: Invalid input/);
    expect(message).not.toMatch(/TypeError|is not a function|Cannot read/);
  });

  it('checks MCP servers, environment variables and the response format', () => {
    const message = problemsOf(
      write(`agents:
  - name: b
    instructions: y
    tools: [web__*]
    mcpServers:
      web: { url: http://x/mcp, headers: { A: "\${MISSING_VAR}" } }
      bad__name: { command: x }
      odd: { command: x, port: 3 }
    responseFormat: { type: string }
`),
      { env: {} },
    );
    expect(message).toContain(':6 agents.0.mcpServers.web.headers.A: names the environment variable MISSING_VAR, which is not set');
    expect(message).toContain(':7 agents.0.mcpServers.bad__name: a server name is');
    expect(message).toContain(':8 agents.0.mcpServers.odd');
    expect(message).toContain(':9 agents.0.responseFormat.type: a response format is a JSON Schema of `type: object`');
  });

  it('refuses duplicate names, names taken by agents in code, bad YAML and a missing file', () => {
    const twice = problemsOf(
      write(`agents:
  - { name: demo, instructions: x, tools: [] }
  - { name: twin, instructions: x, tools: [] }
  - { name: twin, instructions: x, tools: [] }
`),
      { known: ['demo'] },
    );
    expect(twice).toContain(':2 agents.0.name: "demo" is an agent defined in code');
    expect(twice).toContain(':4 agents.2.name: another agent in this file is named "twin"');
    expect(problemsOf(write('agents: [\n  {name: x'))).toContain('is not valid YAML or JSON');
    expect(problemsOf(path.join(dir, 'absent.yaml'))).toContain('HITL_AGENTS_FILE: cannot read');
    expect(problemsOf(write('{"agents": [{"name": "j", "instructions": 3, "tools": []}]}', 'json'))).toContain(':1 agents.0.instructions');
  });

  it("takes LangGraph's agent options, the context schema as a JSON Schema, and names the line of a bad one", () => {
    const [agent] = loadAgentsFile(
      write(`agents:
  - name: typed
    instructions: You help one tenant.
    tools: [read_data, write_file]
    contextSchema: { type: object, properties: { tenant: { type: string } }, required: [tenant] }
    beforeModel: { hook: trimMessages, options: { maxTokens: 4000 } }
    interrupt: { beforeTools: { tools: [write_file] } }
    toolErrors: { write_file: { message: Writing failed. } }
`),
    );
    expect(agent).toMatchObject({
      contextSchema: { type: 'object', required: ['tenant'] },
      beforeModel: { hook: 'trimMessages' },
      interrupt: { beforeTools: { tools: ['write_file'] } },
      toolErrors: { write_file: { message: 'Writing failed.' } },
    });
    const message = problemsOf(
      write(`agents:
  - name: typo
    instructions: x
    tools: [read_data]
    modelSelector: bySise
    contextSchema: { type: string }
`),
    );
    expect(message).toMatch(/yaml:5 agents.0.modelSelector: no selector "bySise"/);
    expect(message).toMatch(/yaml:6 agents.0.contextSchema: a context schema is a JSON Schema of `type: object`/);
  });
});
